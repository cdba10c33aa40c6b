import { randomBytes } from 'node:crypto';

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

  toJSON(): unknown {
    // Only reached through a plain JSON.stringify; stringifyWithRawJson never calls it.
    return JSON.parse(this.text);
  }
}

/**
 * JSON.stringify that writes every RawJson as its text. Each RawJson is first replaced by a
 * placeholder string carrying a random nonce, so that no client-controlled string can be taken
 * for one.
 */
export function stringifyWithRawJson(value: unknown): string {
  const raws: string[] = [];
  let nonce: string | undefined;
  const json = JSON.stringify(value, function replacer(this: unknown, key: string, current: unknown) {
    // `current` has already been through toJSON; look at the holder's own value instead.
    const original = (this as Record<string, unknown>)[key];
    if (original instanceof RawJson) {
      nonce ??= randomBytes(12).toString('hex');
      raws.push(original.text);
      return `\u0000raw:${nonce}:${raws.length - 1}`;
    }
    return current;
  });
  if (nonce === undefined) return json;
  const placeholder = new RegExp(`"\\\\u0000raw:${nonce}:(\\d+)"`, 'g');
  return json.replace(placeholder, (_match, index: string) => raws[Number(index)]!);
}
