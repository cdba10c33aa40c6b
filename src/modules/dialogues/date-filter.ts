import type { CreatedRange } from '../../core/created-range.js';
import { AppError } from '../../core/errors.js';
import { DAY_MS, parseIsoDate, utcInstantOf } from '../../core/iso-date.js';

// D26: `date` is a UTC day `YYYY-MM-DD` or an ISO 8601 interval `start/end` of dates or
// date-times, either end open. A date start begins at that day's midnight UTC; a date end
// includes that whole day; a date-time end is exclusive (ISO 8601 intervals are half-open).
// A date-time without a zone is read as UTC, like the bare day.

function invalid(): AppError {
  const message = 'date must be YYYY-MM-DD or an ISO 8601 interval start/end (either end may be left open)';
  return new AppError('INVALID_PARAMETER', `date: ${message}`, [
    { field: 'date', code: 'INVALID_PARAMETER', message },
  ]);
}

/** One end of an interval; `end` decides where a bare date points. */
function parseBound(text: string, end: boolean): Date {
  const parsed = parseIsoDate(text);
  if (!parsed) throw invalid();
  if (parsed.kind === 'day') return new Date(parsed.dayStart + (end ? DAY_MS : 0));
  return new Date(utcInstantOf(parsed));
}

export function parseDateFilter(value: string): CreatedRange {
  const slash = value.indexOf('/');
  if (slash === -1) {
    const day = parseIsoDate(value);
    if (day?.kind !== 'day') throw invalid();
    return { from: new Date(day.dayStart), before: new Date(day.dayStart + DAY_MS) };
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
