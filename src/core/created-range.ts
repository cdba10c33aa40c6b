import { z } from 'zod';
import { AppError } from './errors.js';
import { DAY_MS, parseIsoDate, utcInstantOf } from './iso-date.js';

// D58: the creation-time filters the DialogueDB client sends to the three lists (dialogues,
// messages, memories): `created`, one UTC day, or `startDate`/`endDate`, instants both included
// to the millisecond. They apply together with every other filter and with cursors.

/** Creation times from `from` (included) to `before` (excluded); either side open (D26, D58). */
export interface CreatedRange {
  from?: Date;
  before?: Date;
}

/** The query parameters of D58, for the list schemas. */
export const createdRangeQuery = {
  created: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('D58: only items created on this UTC day (`YYYY-MM-DD`; a date-time stands for its UTC day)'),
  startDate: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('D58: only items created at or after this ISO 8601 instant (a bare date: its midnight UTC)'),
  endDate: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('D58: only items created at or before this ISO 8601 instant (a bare date: that whole UTC day)'),
};

function invalid(field: string, message: string): AppError {
  return new AppError('INVALID_PARAMETER', `${field}: ${message}`, [
    { field, code: 'INVALID_PARAMETER', message },
  ]);
}

/** A bare date as its midnight UTC, or a date-time (without a zone: UTC), to the millisecond. */
function parseTime(field: string, text: string): { time: number; bareDate: boolean } {
  const parsed = parseIsoDate(text);
  if (!parsed) throw invalid(field, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time');
  return { time: utcInstantOf(parsed), bareDate: parsed.kind === 'day' };
}

/** The range the D58 parameters give, intersected with `within` (another filter on creation time). */
export function createdRange(
  query: { created?: string; startDate?: string; endDate?: string },
  within: CreatedRange = {},
): CreatedRange {
  let from = within.from?.getTime();
  let before = within.before?.getTime();
  const narrow = (start: number | undefined, end: number | undefined) => {
    if (start !== undefined) from = from === undefined ? start : Math.max(from, start);
    if (end !== undefined) before = before === undefined ? end : Math.min(before, end);
  };
  if (query.created !== undefined) {
    const { time } = parseTime('created', query.created);
    const day = Math.floor(time / DAY_MS) * DAY_MS;
    narrow(day, day + DAY_MS);
  }
  if (query.startDate !== undefined) narrow(parseTime('startDate', query.startDate).time, undefined);
  if (query.endDate !== undefined) {
    const { time, bareDate } = parseTime('endDate', query.endDate);
    // Inclusive: the whole day of a bare date, the instant itself (to the millisecond) otherwise.
    narrow(undefined, bareDate ? time + DAY_MS : Math.floor(time) + 1);
  }
  if (query.startDate !== undefined && query.endDate !== undefined && from! >= before!) {
    throw invalid('endDate', 'must not be before startDate');
  }
  return {
    from: from === undefined ? undefined : new Date(from),
    before: before === undefined ? undefined : new Date(before),
  };
}
