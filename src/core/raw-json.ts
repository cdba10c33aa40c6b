import { randomHex } from '../lib/random-pool.js';

/** The serialization `stringifyWithRawJson` is running, if any (JSON.stringify is synchronous). */
let active: { nonce: string; raws: string[] } | undefined;

/**
 * JSON text that must reach the client exactly as stored (D28: message content keeps its key
 * order, big integers and escapes). Responses are serialized with `stringifyWithRawJson`, which
 * splices the text in where the value stands.
 */
export class RawJson {
  constructor(readonly text: string) {}

  /** The parsed value, for code that needs to look inside (search text, summaries). */
  parse(): unknown {
    return JSON.parse(this.text);
  }

  /**
   * Inside `stringifyWithRawJson`: a placeholder carrying the serialization's random nonce, so
   * that no client-controlled string can be taken for one. Anywhere else: the parsed value.
   */
  toJSON(): unknown {
    if (!active) return JSON.parse(this.text);
    active.raws.push(this.text);
    return `\u0000raw:${active.nonce}:${active.raws.length - 1}`;
  }
}

/**
 * JSON.stringify that writes every RawJson as its text. RawJson.toJSON marks where each one
 * stands (JSON.stringify calls it natively, which is much cheaper than a replacer function run
 * on every value), and the marks are replaced by the texts afterwards.
 */
export function stringifyWithRawJson(value: unknown): string {
  // `active` belongs to one serialization at a time. Entered again from inside one (a toJSON that
  // serializes something itself), the inner call would take the outer one's marks and then clear
  // `active`, so the outer output would keep bare marks or lose content: refuse instead.
  if (active) {
    throw new Error(
      'stringifyWithRawJson was called while another stringifyWithRawJson was running (from a toJSON?); ' +
        'it cannot nest: serialize the inner value with JSON.stringify, or return it unserialized',
    );
  }
  const serialization = { nonce: randomHex(12), raws: [] as string[] };
  active = serialization;
  let json: string;
  try {
    json = JSON.stringify(value);
  } finally {
    active = undefined;
  }
  if (serialization.raws.length === 0) return json;
  // The marks appear in the output in the order toJSON made them; a plain search finds each.
  let out = '';
  let from = 0;
  serialization.raws.forEach((text, index) => {
    const mark = `"\\u0000raw:${serialization.nonce}:${index}"`;
    const at = json.indexOf(mark, from);
    out += json.slice(from, at) + text;
    from = at + mark.length;
  });
  return out + json.slice(from);
}
