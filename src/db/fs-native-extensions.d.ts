// fs-native-extensions ships no types; this is the one function Parley uses (data-dir-lock.ts).
declare module 'fs-native-extensions' {
  /** An exclusive (or, with `shared`, shared) lock on the whole file; false if another holder has one. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
}
