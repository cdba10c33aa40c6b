import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { randomHex } from '../../src/lib/random-pool.js';

// D5: prefixed, URL-safe, time-sortable ids, drawn from the pooled random bytes.

describe('ids and pooled randomness', () => {
  it('makes distinct, sortable, well-formed ids well past one refill of the pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('msg'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9a-hjkmnp-tv-z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
  });

  it('uses every character of the alphabet in the random part', () => {
    const seen = new Set(
      Array.from({ length: 2_000 }, () => newId('dlg').slice(-16))
        .join('')
        .split(''),
    );
    expect(seen.size).toBe(32);
  });

  it('draws hex of the asked length, different each time', () => {
    const values = Array.from({ length: 1_000 }, () => randomHex(12));
    for (const value of values) expect(value).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(values).size).toBe(values.length);
  });
});
