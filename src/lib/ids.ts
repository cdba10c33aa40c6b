import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

// D5: prefixed, URL-safe, time-sortable ids.
const ulid = monotonicFactory();

export type IdPrefix = 'dlg' | 'msg' | 'mem' | 'prj' | 'key' | 'req';

export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid().toLowerCase()}`;

/** D6: a random key of 256 bits; only its hash is stored. */
export const newApiKey = (): string => `prly_${randomBytes(32).toString('base64url')}`;
