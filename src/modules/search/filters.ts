import { DAY_MS, parseIsoDate } from '../../core/iso-date.js';

// D59: the DialogueDB client's search filters, normalized once: tags as three operator lists,
// metadata as (field, operator, value) conditions, dates as ranges of instants. The repository
// turns them into SQL; the response echoes them back (`request.filter`). Pure functions, no I/O.

const TAG_OPERATORS = ['$in', '$all', '$nin'] as const;
const METADATA_OPERATORS = ['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte'] as const;
const DATE_BOUNDS = ['gte', 'gt', 'lte', 'lt'] as const;

type MetadataOperator = (typeof METADATA_OPERATORS)[number];
type DateBound = (typeof DATE_BOUNDS)[number];
type MetadataScalar = string | number | boolean | null;

export type TagsInput = string[] | Partial<Record<(typeof TAG_OPERATORS)[number], string[]>>;
type MetadataOperators = Partial<Record<MetadataOperator, MetadataScalar | MetadataScalar[]>>;
export type MetadataInput = Record<string, MetadataScalar | MetadataOperators>;
export type DateInput = string | Partial<Record<DateBound, string>>;

export interface TagFilter {
  /** Every one of these ($all, Parley's `tag`, a plain `tags` array). */
  all: string[];
  /** At least one of these ($in). */
  any: string[];
  /** None of these ($nin). */
  none: string[];
}

export interface MetadataCondition {
  field: string;
  op: MetadataOperator;
  value: MetadataScalar | MetadataScalar[];
}

interface InstantBound {
  at: Date;
  inclusive: boolean;
}

export interface InstantRange {
  lower?: InstantBound;
  upper?: InstantBound;
}

/** What the searched object itself must satisfy (a message search: the message's own fields). */
export interface ObjectFilters {
  tags: TagFilter;
  metadata: MetadataCondition[];
  created?: InstantRange;
  modified?: InstantRange;
  hasImage?: boolean;
}

export const hasObjectFilters = (f: ObjectFilters): boolean =>
  f.tags.all.length + f.tags.any.length + f.tags.none.length + f.metadata.length > 0 ||
  f.created !== undefined ||
  f.modified !== undefined ||
  f.hasImage !== undefined;

// ---- time zones ------------------------------------------------------------------------------

/** IANA zone names: `UTC`, `Europe/Oslo`, `America/Argentina/Buenos_Aires`, `Etc/GMT+1`. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    // Bounded: zone names are client input (spellings differ only in case, but still).
    if (formatters.size < 512) formatters.set(zone, format);
  }
  return format;
}

/** An IANA time zone name this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds since the epoch of a wall-clock date and time, read as if it were UTC. */
function wallMs(year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0): number {
  const date = new Date(Date.UTC(2000, month - 1, day, h, m, s, ms));
  // Date.UTC maps years 0-99 to 1900-1999; set the year itself.
  date.setUTCFullYear(year);
  return date.getTime();
}

/** The zone's offset from UTC at `instant`, in milliseconds (wall clock minus UTC). */
function offsetAt(instant: number, zone: string): number {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const wall = wallMs(
    Number(parts.year) * (parts.era === 'BC' ? -1 : 1),
    Number(parts.month),
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/** The instant at which the zone's clocks show `wall` (the later reading when it shows it twice). */
function zonedToInstant(wall: number, zone: string): number {
  let instant = wall - offsetAt(wall, zone);
  const offset = offsetAt(instant, zone);
  if (wall - offset !== instant) instant = wall - offset;
  return instant;
}

/** The first instant of a calendar day (`dayWall`: its midnight read as UTC) in the zone. */
function startOfDay(dayWall: number, zone: string): number {
  let instant = zonedToInstant(dayWall, zone);
  // Where clocks jump over midnight (America/Santiago in September), the day starts at the jump.
  const shown = instant + offsetAt(instant, zone);
  if (shown < dayWall) instant += dayWall - shown;
  return instant;
}

// ---- ISO 8601 dates (read by core/iso-date.ts) ---------------------------------------------

/** `YYYY-MM-DD` or an ISO 8601 date-time (with or without `Z` or an offset) that exists. */
export const isIsoDate = (text: string): boolean => parseIsoDate(text) !== undefined;

/**
 * A date filter as a range of instants in `zone`. A string is one whole calendar day: the day it
 * names, or for a date-time the day on which it falls in `zone`. In a range, a bare day bound
 * counts whole days (`gt` and `lte` reach past the end of that day, `gte` and `lt` its start); a
 * date-time without a zone is a wall-clock time in `zone`. Bounds on the same side keep the
 * tightest. Undefined for a string that is not an ISO date (the schema refused it already).
 */
export function dateRange(input: DateInput, zone: string): InstantRange | undefined {
  if (typeof input === 'string') {
    const parsed = parseIsoDate(input);
    if (!parsed) return undefined;
    const dayWall =
      parsed.kind === 'instant'
        ? Math.floor((parsed.instant + offsetAt(parsed.instant, zone)) / DAY_MS) * DAY_MS
        : parsed.dayStart;
    return {
      lower: { at: new Date(startOfDay(dayWall, zone)), inclusive: true },
      upper: { at: new Date(startOfDay(dayWall + DAY_MS, zone)), inclusive: false },
    };
  }
  const range: InstantRange = {};
  for (const bound of DATE_BOUNDS) {
    const text = input[bound];
    if (text === undefined) continue;
    const parsed = parseIsoDate(text);
    if (!parsed) return undefined;
    const lower = bound === 'gte' || bound === 'gt';
    let at: number;
    let inclusive = bound === 'gte' || bound === 'lte';
    if (parsed.kind === 'day') {
      // A whole day: after it (gt) or through it (lte) reaches the next day's start.
      const pastTheDay = bound === 'gt' || bound === 'lte';
      at = startOfDay(parsed.dayStart + (pastTheDay ? DAY_MS : 0), zone);
      inclusive = lower;
    } else {
      at = parsed.kind === 'instant' ? parsed.instant : zonedToInstant(parsed.wall, zone);
    }
    const candidate = { at: new Date(at), inclusive };
    const current = lower ? range.lower : range.upper;
    const tighter =
      current === undefined ||
      (lower ? at > current.at.getTime() : at < current.at.getTime()) ||
      (at === current.at.getTime() && !inclusive);
    if (tighter) range[lower ? 'lower' : 'upper'] = candidate;
  }
  return range;
}

/** A range that no instant satisfies (its lower bound after its upper bound). */
export function isEmptyRange({ lower, upper }: InstantRange): boolean {
  if (!lower || !upper) return false;
  const [from, to] = [lower.at.getTime(), upper.at.getTime()];
  return from > to || (from === to && !(lower.inclusive && upper.inclusive));
}

/** The range as the response echoes it: `{gte|gt?, lte|lt?}` in UTC ISO 8601. */
export function echoRange({ lower, upper }: InstantRange): Partial<Record<DateBound, string>> {
  const out: Partial<Record<DateBound, string>> = {};
  if (lower) out[lower.inclusive ? 'gte' : 'gt'] = lower.at.toISOString();
  if (upper) out[upper.inclusive ? 'lte' : 'lt'] = upper.at.toISOString();
  return out;
}

// ---- tags and metadata ---------------------------------------------------------------------

const unique = (values: string[]): string[] => [...new Set(values)];

/** Parley's `tag` (every one required) and the client's `tags`; both apply (D59). */
export function tagFilter(tag: string[], tags: TagsInput | undefined): TagFilter {
  if (tags === undefined) return { all: unique(tag), any: [], none: [] };
  if (Array.isArray(tags)) return { all: unique([...tag, ...tags]), any: [], none: [] };
  return {
    all: unique([...tag, ...(tags.$all ?? [])]),
    any: unique(tags.$in ?? []),
    none: unique(tags.$nin ?? []),
  };
}

export function echoTags(
  filter: TagFilter,
): Partial<Record<(typeof TAG_OPERATORS)[number], string[]>> | null {
  const out: Partial<Record<(typeof TAG_OPERATORS)[number], string[]>> = {};
  if (filter.all.length > 0) out.$all = filter.all;
  if (filter.any.length > 0) out.$in = filter.any;
  if (filter.none.length > 0) out.$nin = filter.none;
  return Object.keys(out).length > 0 ? out : null;
}

const isOperators = (value: MetadataScalar | MetadataOperators): value is MetadataOperators =>
  value !== null && typeof value === 'object';

/** `{field: value}` is `{field: {$eq: value}}`; operators in a fixed order. */
export function metadataConditions(metadata: MetadataInput | undefined): MetadataCondition[] {
  const out: MetadataCondition[] = [];
  for (const [field, condition] of Object.entries(metadata ?? {})) {
    if (!isOperators(condition)) {
      out.push({ field, op: '$eq', value: condition });
      continue;
    }
    for (const op of METADATA_OPERATORS) {
      const value = condition[op];
      if (value !== undefined) out.push({ field, op, value });
    }
  }
  return out;
}

export function echoMetadata(conditions: MetadataCondition[]): Record<string, MetadataOperators> | null {
  if (conditions.length === 0) return null;
  const out: Record<string, MetadataOperators> = {};
  // Own fields only: `constructor` or `toString` are field names like any other here.
  for (const { field, op, value } of conditions) {
    out[field] = { ...(Object.hasOwn(out, field) ? out[field] : {}), [op]: value };
  }
  return out;
}
