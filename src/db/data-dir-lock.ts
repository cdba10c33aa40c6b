import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tryLock } from 'fs-native-extensions';

// One process at a time may open an embedded database directory: two PGlite instances on one
// directory each keep their own buffers and write the same files unaware of each other, so what
// one writes the other neither sees nor keeps (a key that `parley project create` printed beside
// a running server was never accepted, and its project vanished). docs/api-decisions.md, "The
// embedded database's lock".
//
// The lock is the kernel's (fcntl open-file-description locks on Linux, flock on macOS,
// LockFileEx on Windows, through fs-native-extensions' prebuilt addon): it dies with its
// holder, so a killed process leaves nothing that blocks or delays the next start, and no pid
// has to be judged alive (in a container the server is PID 1 on every start). proper-lockfile
// was not taken: its lock is a directory judged stale by an mtime older than `stale` (10 s by
// default), so a start right after a kill -9 would wait or fail, and a holder whose event loop
// is busy past that time (PGlite runs queries on it) would lose its lock.

/** The lock file, kept inside the data directory (whose parent may not be writable, as in the image). */
export const DATA_DIR_LOCK_FILE = 'parley.lock';

/** What the holder of a data directory is, written into the lock file for whoever finds it taken. */
export type DataDirOwner =
  | { kind: 'server'; url: string; adminApi: boolean }
  /** `command`: the words after `parley` (`project create`); empty for a program that opens it itself. */
  | { kind: 'command'; command: string };

type Holder = DataDirOwner & { pid: number; since: string };

export interface DataDirLock {
  release(): void;
}

/** Another process holds the data directory: the message says which, and what to do instead. */
export class DataDirInUseError extends Error {
  readonly code = 'DATA_DIR_IN_USE';

  constructor(
    readonly dataDir: string,
    readonly holder: Holder | undefined,
    opener: DataDirOwner,
  ) {
    super(inUseMessage(dataDir, holder, opener));
    this.name = 'DataDirInUseError';
  }
}

/** Takes the lock of `dataDir` (an existing directory) without waiting, or throws DataDirInUseError. */
export function lockDataDir(dataDir: string, owner: DataDirOwner): DataDirLock {
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  // Never deleted: a process that opened the old file could lock it while another creates a new one.
  const fd = openSync(path, 'a+');
  let granted: boolean;
  try {
    granted = tryLock(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!granted) {
    closeSync(fd);
    throw new DataDirInUseError(dataDir, readHolder(path), owner);
  }
  const holder: Holder = { ...owner, pid: process.pid, since: new Date().toISOString() };
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(holder)}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // Closing the descriptor releases the lock; the file keeps the last holder, for diagnosis only.
      closeSync(fd);
    },
  };
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.since !== 'string') return undefined;
    if (parsed.kind === 'server' && typeof parsed.url === 'string') return parsed as Holder;
    if (parsed.kind === 'command' && typeof parsed.command === 'string') return parsed as Holder;
    return undefined;
  } catch {
    // Being written this very moment, or not ours: the message then names no holder.
    return undefined;
  }
}

const ONE_AT_A_TIME = 'The embedded database can be open in one process at a time.';
const POSTGRES_HINT =
  'To run servers and `parley` commands side by side, use Postgres: set DATABASE_URL for all of them.';

function adminApiHint(url: string, adminApi: boolean): string {
  const example =
    `  curl -X POST ${url}/admin/v1/projects -H "Authorization: Bearer $ADMIN_TOKEN" ` +
    `-H "Content-Type: application/json" -d '{"name":"my-project"}'`;
  return adminApi
    ? `Stop the server first, or leave it running and use its admin API (${url}/docs), e.g. to create a project:\n${example}`
    : `Stop the server first, or restart it with ADMIN_TOKEN set and use its admin API (${url}/docs), e.g. to create a project:\n${example}`;
}

function inUseMessage(dataDir: string, holder: Holder | undefined, opener: DataDirOwner): string {
  if (!holder) {
    return [
      `DATA_DIR ${dataDir} is in use by another process. ${ONE_AT_A_TIME}`,
      'Stop the Parley server or command that has it open, or, for a running server, use its admin API ' +
        '(POST /admin/v1/projects to create a project, with Authorization: Bearer $ADMIN_TOKEN).',
      POSTGRES_HINT,
    ].join('\n');
  }
  const since = `pid ${holder.pid}, started ${holder.since}`;
  if (holder.kind === 'command') {
    return [
      `DATA_DIR ${dataDir} is in use by ${holder.command ? `\`parley ${holder.command}\`` : 'a Parley process'} ` +
        `(${since}). ${ONE_AT_A_TIME}`,
      'Wait for that command to end (or stop it), then try again.',
    ].join('\n');
  }
  const server = `the Parley server (${since}, listening on ${holder.url})`;
  if (opener.kind === 'server') {
    return [
      `DATA_DIR ${dataDir} is in use by ${server}. ${ONE_AT_A_TIME}`,
      'Stop that server first, or give this one another DATA_DIR. Several servers can share one ' +
        'Postgres database (DATABASE_URL).',
    ].join('\n');
  }
  return [
    `DATA_DIR ${dataDir} is in use by ${server}. ${ONE_AT_A_TIME} A command run beside it would ` +
      'write changes the server never sees and later overwrites.',
    adminApiHint(holder.url, holder.adminApi),
    POSTGRES_HINT,
  ].join('\n');
}
