import { describe, expect, it } from 'vitest';
import { RawJson, stringifyWithRawJson } from '../../src/core/raw-json.js';

// D28: stored content reaches the client as the exact text the client sent.

describe('stringifyWithRawJson', () => {
  it('splices each RawJson in verbatim, wherever it stands', () => {
    const first = new RawJson('{"b":1,"a":2,"10":3,"2":4}');
    const second = new RawJson('12345678901234567890123');
    const body = { items: [{ content: first }, { content: second }], next: null, content: first };
    expect(stringifyWithRawJson(body)).toBe(
      '{"items":[{"content":{"b":1,"a":2,"10":3,"2":4}},{"content":12345678901234567890123}],' +
        '"next":null,"content":{"b":1,"a":2,"10":3,"2":4}}',
    );
  });

  it('leaves client strings that imitate its marks alone', () => {
    const forged = '\u0000raw:000000000000000000000000:0';
    const body = { name: forged, content: new RawJson('"kept"'), other: `"${forged}"` };
    const out = stringifyWithRawJson(body);
    expect(JSON.parse(out)).toEqual({ name: forged, content: 'kept', other: `"${forged}"` });
  });

  it('answers like JSON.stringify when there is no RawJson', () => {
    const body = { a: [1, 'two', { three: null }], d: new Date(0) };
    expect(stringifyWithRawJson(body)).toBe(JSON.stringify(body));
  });

  it('gives the parsed value to a plain JSON.stringify (logs, MCP text)', () => {
    expect(JSON.stringify({ content: new RawJson('{"b":1,"a":2}') })).toBe('{"content":{"b":1,"a":2}}');
  });

  it('refuses to be entered again while it runs, rather than corrupt the outer output', () => {
    const inner = { toJSON: () => stringifyWithRawJson({ content: new RawJson('{"b":1,"a":2}') }) };
    const body = { before: new RawJson('[3,2,1]'), inner, after: new RawJson('{"z":0,"y":1}') };
    expect(() => stringifyWithRawJson(body)).toThrow(/called while another stringifyWithRawJson was running/);
    // The failed serialization left nothing behind: the next one works.
    expect(stringifyWithRawJson({ content: new RawJson('{"b":1,"a":2}') })).toBe('{"content":{"b":1,"a":2}}');
  });
});
