import type { z } from 'zod';

// D82: a field or query parameter that the schema does not declare is refused, not dropped. zod's
// plain objects strip unknown keys without a word; rather than rewriting every request schema as a
// strict object (and every one a new module adds), the input is walked beside its schema once the
// request part or tool arguments are parsed. The schemas, their OpenAPI component ids and their
// documents stay exactly as declared.

type Issue = z.core.$ZodIssue;
type Schema = z.core.$ZodType;
type Path = PropertyKey[];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether `schema` has an object anywhere inside it: only then can a union's choice matter. */
const objectInside = new WeakMap<Schema, boolean>();

function holdsObject(schema: Schema, seen = new Set<Schema>()): boolean {
  const known = objectInside.get(schema);
  if (known !== undefined) return known;
  // A schema that refers to itself (z.lazy) is answered by the first look at it.
  if (seen.has(schema)) return false;
  seen.add(schema);
  const found =
    children(schema).some((child) => holdsObject(child, seen)) || schema._zod.def.type === 'object';
  objectInside.set(schema, found);
  return found;
}

/** The definition of a built-in zod type, narrowed by its `type` (custom classes are none of ours). */
function defOf(schema: Schema) {
  return (schema as z.core.$ZodTypes)._zod.def;
}

function children(schema: Schema): Schema[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.values(def.shape);
    case 'array':
      return [def.element];
    case 'record':
      return [def.valueType];
    case 'union':
      return [...def.options];
    case 'pipe':
      return [viewOfPipe(def)];
    case 'lazy':
      return [def.getter()];
    default:
      return 'innerType' in def ? [def.innerType] : [];
  }
}

/**
 * The side of a pipe that sees the input as sent: `.transform()` pipes the schema into a transform,
 * `z.preprocess` a transform into the schema (the preprocessors here leave the value's keys as sent).
 */
function viewOfPipe(def: z.core.$ZodPipeDef): Schema {
  return def.in._zod.def.type === 'transform' ? def.out : def.in;
}

function walk(schema: Schema, input: unknown, path: Path, issues: Issue[]): void {
  if (input === undefined || !holdsObject(schema)) return;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const { shape, catchall } = def;
      if (!isPlainObject(input)) return;
      const unknown = Object.keys(input).filter((key) => !Object.hasOwn(shape, key));
      // A catchall means the schema decides about extra keys itself: `.strict()` reports them,
      // `.loose()` keeps them on purpose.
      if (catchall === undefined && unknown.length > 0) {
        issues.push({ code: 'unrecognized_keys', keys: unknown, path, message: 'Unrecognized keys', input });
      }
      for (const [key, field] of Object.entries(shape)) walk(field, input[key], [...path, key], issues);
      return;
    }
    case 'array':
      if (Array.isArray(input)) {
        for (const [index, item] of input.entries()) walk(def.element, item, [...path, index], issues);
      }
      return;
    case 'record':
      if (isPlainObject(input)) {
        for (const [key, value] of Object.entries(input)) walk(def.valueType, value, [...path, key], issues);
      }
      return;
    case 'union':
      issues.push(...walkUnion([...def.options], input, path));
      return;
    default:
      for (const child of children(schema)) walk(child, input, path, issues);
  }
}

/**
 * The members the input is meant for: those that accept it, or all when none does (then the
 * member with the fewest unknown keys is the likely intent). A member accepting it that has no
 * object inside (a free-form record) takes the input as it is.
 */
function walkUnion(options: Schema[], input: unknown, path: Path): Issue[] {
  const accepting = options.filter((option) => isValid(option, input));
  if (accepting.some((option) => !holdsObject(option))) return [];
  const candidates = (accepting.length > 0 ? accepting : options).filter((option) => holdsObject(option));
  let fewest: Issue[] | undefined;
  for (const option of candidates) {
    const found: Issue[] = [];
    walk(option, input, path, found);
    if (fewest === undefined || found.length < fewest.length) fewest = found;
    if (fewest.length === 0) break;
  }
  return fewest ?? [];
}

function isValid(schema: Schema, input: unknown): boolean {
  const result = schema['~standard'].validate(input);
  return !(result instanceof Promise) && result.issues === undefined;
}

/** D82: one `unrecognized_keys` issue per object of `input` that carries keys `schema` does not declare. */
export function unknownKeyIssues(schema: Schema, input: unknown): Issue[] {
  const issues: Issue[] = [];
  walk(schema, input, [], issues);
  return issues;
}
