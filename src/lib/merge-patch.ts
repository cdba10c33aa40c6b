// JSON Merge Patch (RFC 7396), used for dialogue state (D19, D20): objects merge key by key, a
// `null` value removes the key, anything else replaces the value.

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// Keys are defined, never assigned: a `__proto__` key from a client stays a plain key.
function define(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: JsonObject = {};
  if (isObject(target)) for (const [key, value] of Object.entries(target)) define(result, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else define(result, key, mergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}

export const mergeObjectPatch = (target: JsonObject, patch: JsonObject): JsonObject =>
  mergePatch(target, patch) as JsonObject;
