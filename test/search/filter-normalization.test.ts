import { describe, expect, it } from 'vitest';
import {
  dateRange,
  echoMetadata,
  echoRange,
  echoTags,
  isEmptyRange,
  isIsoDate,
  isTimeZone,
  metadataConditions,
  tagFilter,
} from '../../src/modules/search/filters.js';

// D59: how the client's filters are normalized before they become SQL and the `request` echo.

const echo = (input: Parameters<typeof dateRange>[0], zone = 'UTC') => echoRange(dateRange(input, zone)!);

describe('dates and time zones', () => {
  it('reads a day as that whole day in the time zone', () => {
    expect(echo('2024-05-02')).toEqual({ gte: '2024-05-02T00:00:00.000Z', lt: '2024-05-03T00:00:00.000Z' });
    expect(echo('2024-05-02', 'Europe/Oslo')).toEqual({
      gte: '2024-05-01T22:00:00.000Z',
      lt: '2024-05-02T22:00:00.000Z',
    });
    // A date-time names the day on which it falls in the zone; without a zone, its own date.
    expect(echo('2024-05-01T23:30:00Z', 'Europe/Oslo')).toEqual(echo('2024-05-02', 'Europe/Oslo'));
    expect(echo('2024-05-01T23:30:00', 'Europe/Oslo')).toEqual(echo('2024-05-01', 'Europe/Oslo'));
    expect(echo('2024-05-01T23:30:00+05:00')).toEqual(echo('2024-05-01'));
  });

  it('follows daylight saving time: a 23-hour day, and a day whose midnight does not exist', () => {
    expect(echo('2024-03-31', 'Europe/Oslo')).toEqual({
      gte: '2024-03-30T23:00:00.000Z',
      lt: '2024-03-31T22:00:00.000Z',
    });
    // America/Santiago jumped from 24:00 to 01:00 on 2024-09-08: that day starts at 01:00 (-03).
    expect(echo('2024-09-08', 'America/Santiago')).toEqual({
      gte: '2024-09-08T04:00:00.000Z',
      lt: '2024-09-09T03:00:00.000Z',
    });
  });

  it('reads a wall-clock time skipped by a jump as after it, and a repeated one as its later occurrence', () => {
    // Oslo, 2024-03-31: 02:00 CET became 03:00 CEST; 2024-10-27: 03:00 CEST became 02:00 CET.
    expect(echo({ gte: '2024-03-31T02:30' }, 'Europe/Oslo')).toEqual({ gte: '2024-03-31T01:30:00.000Z' });
    expect(echo({ gte: '2024-10-27T02:30' }, 'Europe/Oslo')).toEqual({ gte: '2024-10-27T01:30:00.000Z' });
    expect(echo({ gte: '2024-10-27T01:30' }, 'Europe/Oslo')).toEqual({ gte: '2024-10-26T23:30:00.000Z' });
  });

  it('counts whole days for bare-date bounds and reads zone-less date-times in the zone', () => {
    expect(echo({ gt: '2024-05-01', lte: '2024-05-03' })).toEqual({
      gte: '2024-05-02T00:00:00.000Z',
      lt: '2024-05-04T00:00:00.000Z',
    });
    expect(echo({ gte: '2024-05-01', lt: '2024-05-03' }, 'Asia/Tokyo')).toEqual({
      gte: '2024-04-30T15:00:00.000Z',
      lt: '2024-05-02T15:00:00.000Z',
    });
    expect(echo({ gte: '2024-05-01T10:00', lte: '2024-05-01T12:00:00.5Z' }, 'Asia/Tokyo')).toEqual({
      gte: '2024-05-01T01:00:00.000Z',
      lte: '2024-05-01T12:00:00.500Z',
    });
    expect(echo({ gt: '2024-05-01T10:00:00+0200' })).toEqual({ gt: '2024-05-01T08:00:00.000Z' });
  });

  it('keeps the tightest bound of each side, and knows an empty range', () => {
    expect(echo({ gte: '2024-05-01T00:00:00Z', gt: '2024-05-01T00:00:00Z' })).toEqual({
      gt: '2024-05-01T00:00:00.000Z',
    });
    expect(echo({ lte: '2024-05-01T00:00:00Z', lt: '2024-06-01T00:00:00Z' })).toEqual({
      lte: '2024-05-01T00:00:00.000Z',
    });
    expect(isEmptyRange(dateRange({ gte: '2024-05-02', lt: '2024-05-01' }, 'UTC')!)).toBe(true);
    expect(isEmptyRange(dateRange({ gt: '2024-05-01T00:00Z', lte: '2024-05-01T00:00Z' }, 'UTC')!)).toBe(true);
    expect(isEmptyRange(dateRange({ gte: '2024-05-01T00:00Z', lte: '2024-05-01T00:00Z' }, 'UTC')!)).toBe(
      false,
    );
    expect(isEmptyRange(dateRange('2024-05-01', 'UTC')!)).toBe(false);
  });

  it('accepts only ISO dates that exist and IANA zone names', () => {
    for (const text of [
      '2024-02-29',
      '2024-05-01T10:00',
      '2024-05-01T10:00:59.123456Z',
      '2024-05-01T10:00-03',
    ]) {
      expect(isIsoDate(text), text).toBe(true);
    }
    for (const text of [
      '2023-02-29',
      '2024-13-01',
      '2024-05-01T24:00',
      'yesterday',
      '2024-5-1',
      '1714550400',
    ]) {
      expect(isIsoDate(text), text).toBe(false);
    }
    for (const zone of ['UTC', 'Europe/Oslo', 'America/Argentina/Buenos_Aires', 'Etc/GMT+1']) {
      expect(isTimeZone(zone), zone).toBe(true);
    }
    for (const zone of ['Mars/Olympus', '+01:00', '', 'Europe/Oslo; DROP TABLE', '../etc']) {
      expect(isTimeZone(zone), zone).toBe(false);
    }
  });
});

describe('tags and metadata', () => {
  it('merges `tag` into $all, a plain array too, without repeats', () => {
    expect(tagFilter(['a'], undefined)).toEqual({ all: ['a'], any: [], none: [] });
    expect(tagFilter(['a'], ['b', 'a'])).toEqual({ all: ['a', 'b'], any: [], none: [] });
    const filter = tagFilter([], { $in: ['x', 'y'], $nin: ['z'] });
    expect(filter).toEqual({ all: [], any: ['x', 'y'], none: ['z'] });
    expect(echoTags(filter)).toEqual({ $in: ['x', 'y'], $nin: ['z'] });
    expect(echoTags(tagFilter([], []))).toBeNull();
  });

  it('reads a plain value as $eq and keeps operators in a fixed order', () => {
    const conditions = metadataConditions({ plan: 'pro', score: { $lt: 9, $gte: 3 }, gone: null });
    expect(conditions).toEqual([
      { field: 'plan', op: '$eq', value: 'pro' },
      { field: 'score', op: '$gte', value: 3 },
      { field: 'score', op: '$lt', value: 9 },
      { field: 'gone', op: '$eq', value: null },
    ]);
    expect(echoMetadata(conditions)).toEqual({
      plan: { $eq: 'pro' },
      score: { $gte: 3, $lt: 9 },
      gone: { $eq: null },
    });
    expect(echoMetadata([])).toBeNull();
  });
});
