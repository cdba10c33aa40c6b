import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

// D5: prefixed, URL-safe, time-sortable ids.

/**
 * ulidx's own generator asks the system for one random byte per character (16 calls per id,
 * the largest single cost of a message write in a profile). Drawing the bytes from a pool
 * filled 4 KiB at a time gives the same cryptographic randomness for a fraction of the calls.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;
function randomFraction(): number {
  if (next === pool.length) {
    randomBytes(pool.length).copy(pool);
    next = 0;
  }
  // ulidx takes floor(fraction * 32) per character: a byte / 256 keeps every character uniform.
  return pool[next++]! / 256;
}

const ulid = monotonicFactory(randomFraction);

export type IdPrefix = 'dlg' | 'msg' | 'mem' | 'prj' | 'key' | 'req';

export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid().toLowerCase()}`;

/** D6: a random key of 256 bits; only its hash is stored. */
export const newApiKey = (): string => `prly_${randomBytes(32).toString('base64url')}`;
