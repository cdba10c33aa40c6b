import { AppError } from '../../core/errors.js';

// D26: `date` is a UTC day `YYYY-MM-DD` or an ISO 8601 interval `start/end` of dates or
// date-times, either end open. A date start begins at that day's midnight UTC; a date end
// includes that whole day; a date-time end is exclusive (ISO 8601 intervals are half-open).

export interface CreatedRange {
  from?: Date;
  before?: Date;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const DAY_MS = 86_400_000;

function invalid(): AppError {
  const message = 'date must be YYYY-MM-DD or an ISO 8601 interval start/end (either end may be left open)';
  return new AppError('INVALID_PARAMETER', `date: ${message}`, [
    { field: 'date', code: 'INVALID_PARAMETER', message },
  ]);
}

function parseDay(text: string): Date | undefined {
  const match = DAY.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Refuses days that do not exist (2025-02-30) instead of rolling them over.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw invalid();
  }
  return date;
}

/** One end of an interval; `end` decides where a bare date points. */
function parseBound(text: string, end: boolean): Date {
  const day = parseDay(text);
  if (day) return end ? new Date(day.getTime() + DAY_MS) : day;
  if (!DATE_TIME.test(text)) throw invalid();
  // A date-time without a zone is read as UTC, like the bare day.
  const zoned = /(Z|[+-]\d{2}(:?\d{2})?)$/i.test(text.slice(10)) ? text : `${text}Z`;
  const time = Date.parse(zoned);
  if (Number.isNaN(time)) throw invalid();
  return new Date(time);
}

export function parseDateFilter(value: string): CreatedRange {
  const slash = value.indexOf('/');
  if (slash === -1) {
    const day = parseDay(value);
    if (!day) throw invalid();
    return { from: day, before: new Date(day.getTime() + DAY_MS) };
  }
  const [start, end] = [value.slice(0, slash), value.slice(slash + 1)];
  if (start === '' && end === '') throw invalid();
  const range: CreatedRange = {
    from: start === '' ? undefined : parseBound(start, false),
    before: end === '' ? undefined : parseBound(end, true),
  };
  if (range.from && range.before && range.from >= range.before) throw invalid();
  return range;
}
