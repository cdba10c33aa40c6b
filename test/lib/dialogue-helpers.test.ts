import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_TEXT_CHARS, contentText } from '../../src/lib/content-text.js';
import { mergePatch } from '../../src/lib/merge-patch.js';
import { parseDateFilter } from '../../src/modules/dialogues/date-filter.js';

describe('contentText', () => {
  it('takes a string as it is', () => {
    expect(contentText('Where is my order?')).toBe('Where is my order?');
  });

  it('takes every string value of blocks and objects in document order, not the keys', () => {
    const blocks = [
      { type: 'text', text: 'Looking it up' },
      { type: 'tool_use', name: 'lookup_order', input: { orderId: '1234', verbose: true, count: 3 } },
    ];
    expect(contentText(blocks)).toBe('text\nLooking it up\ntool_use\nlookup_order\n1234');
    expect(contentText({ summary: 'refund', nested: { deep: ['a', 'b'] } })).toBe('refund\na\nb');
  });

  it('leaves out blobs without whitespace, NUL characters and text past the cap', () => {
    const image = { type: 'image', source: { data: 'A'.repeat(600) } };
    expect(contentText([image, { type: 'text', text: 'caption' }])).toBe('image\ntext\ncaption');
    expect(contentText('a\u0000b')).toBe('ab');
    expect(contentText('word '.repeat(100_000))).toHaveLength(MAX_SEARCH_TEXT_CHARS);
  });
});

describe('mergePatch (RFC 7396)', () => {
  it('merges objects, removes keys set to null and replaces everything else', () => {
    const target = { a: 1, b: { c: 2, d: 3 }, list: [1, 2] };
    expect(mergePatch(target, { a: null, b: { c: null, e: 4 }, list: [3], f: 'x' })).toEqual({
      b: { d: 3, e: 4 },
      list: [3],
      f: 'x',
    });
    expect(target).toEqual({ a: 1, b: { c: 2, d: 3 }, list: [1, 2] });
  });

  it('keeps __proto__ as a plain key and pollutes nothing', () => {
    const merged = mergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.keys(merged)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseDateFilter (D26)', () => {
  it('reads a day as [midnight, next midnight) UTC', () => {
    expect(parseDateFilter('2024-02-29')).toEqual({
      from: new Date('2024-02-29T00:00:00Z'),
      before: new Date('2024-03-01T00:00:00Z'),
    });
  });

  it('reads intervals: a date end includes its day, a date-time end is exclusive, zone-less is UTC', () => {
    expect(parseDateFilter('2024-01-01/2024-01-31')).toEqual({
      from: new Date('2024-01-01T00:00:00Z'),
      before: new Date('2024-02-01T00:00:00Z'),
    });
    expect(parseDateFilter('2024-01-01T10:00/2024-01-01T13:30+02:00')).toEqual({
      from: new Date('2024-01-01T10:00:00Z'),
      before: new Date('2024-01-01T11:30:00Z'),
    });
  });

  it('leaves a side open', () => {
    expect(parseDateFilter('2024-01-01/')).toEqual({
      from: new Date('2024-01-01T00:00:00Z'),
      before: undefined,
    });
    expect(parseDateFilter('/2024-01-01')).toEqual({
      from: undefined,
      before: new Date('2024-01-02T00:00:00Z'),
    });
  });
});
