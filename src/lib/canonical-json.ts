/**
 * JSON text of a value with every object's keys sorted: two encodings of the same value give the
 * same text. For hashing, not for storing (stored content keeps the client's own text, D28).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node !== null && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(
          Object.entries(node as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : node,
  );
}
