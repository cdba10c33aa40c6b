// The one reader of ISO 8601 dates and date-times from clients, shared by the list filters (D26,
// D58) and the search filters (D59), which differ only in how they turn a date into a range.
//
// Accepted: a calendar day `YYYY-MM-DD`, or `YYYY-MM-DDThh:mm`, optionally `:ss` and a fraction of
// up to 9 digits (kept to the millisecond, the rest cut off), optionally followed by `Z` or an
// offset `±hh`, `±hhmm` or `±hh:mm`. `T` and `Z` may be lower case. Refused: a day that does not
// exist (2025-02-30, 2023-02-29, month 13), year 0000, hour 24, second 60, an offset past 23:59,
// and every other ISO 8601 form (week dates, ordinal dates, the basic format without dashes).
// Hand-written because the libraries at hand are lenient where these filters must refuse: Date.parse
// rolls February 30 over into March and reads some non-ISO text, and the Temporal polyfills also
// accept basic-format and extended-year forms.

export const DAY_MS = 86_400_000;

export type IsoDate =
  /** A calendar day; `dayStart` is its midnight read as UTC, in milliseconds since the epoch. */
  | { kind: 'day'; dayStart: number }
  /** A date-time without a zone: `wall` is the clock reading taken as UTC; the caller picks a zone. */
  | { kind: 'local'; dayStart: number; wall: number }
  /** A date-time with `Z` or an offset: one instant. */
  | { kind: 'instant'; dayStart: number; instant: number };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const OFFSET = /^([+-])(\d{2}):?(\d{2})?$/;

/** Midnight UTC of a day that exists, or undefined. */
function dayStartOf(year: number, month: number, day: number): number | undefined {
  if (year < 1 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(Date.UTC(2000, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999: the year is set on its own.
  date.setUTCFullYear(year);
  // A day past the month's end rolls over into the next month: refused instead.
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date.getTime() : undefined;
}

/** The date or date-time `text` names, or undefined when it is not one (see above). */
export function parseIsoDate(text: string): IsoDate | undefined {
  const day = DAY.exec(text);
  if (day) {
    const dayStart = dayStartOf(Number(day[1]), Number(day[2]), Number(day[3]));
    return dayStart === undefined ? undefined : { kind: 'day', dayStart };
  }
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const dayStart = dayStartOf(Number(match[1]), Number(match[2]), Number(match[3]));
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (dayStart === undefined || hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const wall = dayStart + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  const zone = match[8];
  if (zone === undefined) return { kind: 'local', dayStart, wall };
  if (zone.toUpperCase() === 'Z') return { kind: 'instant', dayStart, instant: wall };
  const offset = OFFSET.exec(zone)!;
  const [hours, minutes] = [Number(offset[2]), Number(offset[3] ?? 0)];
  if (hours > 23 || minutes > 59) return undefined;
  const sign = offset[1] === '-' ? -1 : 1;
  return { kind: 'instant', dayStart, instant: wall - sign * (hours * 60 + minutes) * 60_000 };
}

/** The instant a date-time names, reading one without a zone as UTC; a bare day is its midnight UTC. */
export function utcInstantOf(date: IsoDate): number {
  return date.kind === 'instant' ? date.instant : date.kind === 'local' ? date.wall : date.dayStart;
}
