import { randomBytes } from 'node:crypto';

// Cryptographically random bytes drawn from a pool filled 4 KiB at a time: hot paths (an id per
// message, a nonce per response) need a few bytes each, and asking the system for them one
// call at a time was among the largest single costs of a message write in a profile.

const pool = Buffer.alloc(4096);
let next = pool.length;

/** One random byte, 0-255. */
export function randomByte(): number {
  if (next === pool.length) {
    randomBytes(pool.length).copy(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  let hex = '';
  for (let i = 0; i < bytes; i++) hex += randomByte().toString(16).padStart(2, '0');
  return hex;
}
