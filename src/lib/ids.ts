import { randomBytes } from 'node:crypto';
import { encodeTime, monotonicFactory } from 'ulidx';
import { randomByte } from './random-pool.js';

// D5: prefixed, URL-safe, time-sortable ids.

// ulidx's own generator asks the system for one random byte per character (16 calls per id);
// the shared pool gives the same randomness. ulidx takes floor(fraction * 32) per character:
// a byte / 256 keeps every character uniform.
const ulid = monotonicFactory(() => randomByte() / 256);

export type IdPrefix =
  | 'dlg'
  | 'msg'
  | 'mem'
  | 'sum'
  | 'prj'
  | 'key'
  | 'req'
  | 'evt'
  | 'whk'
  | 'whd'
  | 'wha'
  | 'era';

export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid().toLowerCase()}`;

/**
 * A bound below every id of `prefix` made at or after `time` and above every one made before it:
 * an id begins with its time, ten characters of an alphabet that sorts in time order.
 */
export const idBoundAt = (prefix: IdPrefix, time: number): string =>
  `${prefix}_${encodeTime(time, 10).toLowerCase()}`;

/** D6: a random key of 256 bits; only its hash is stored. */
export const newApiKey = (): string => `prly_${randomBytes(32).toString('base64url')}`;
