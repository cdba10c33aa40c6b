import { describe, expect, it } from 'vitest';
import { parseIsoDate, utcInstantOf } from '../../src/core/iso-date.js';

const at = (iso: string): number => Date.parse(iso);

describe('parseIsoDate: the one reader of client dates (D26, D58, D59)', () => {
  it('reads a calendar day as its midnight UTC', () => {
    expect(parseIsoDate('2024-05-01')).toEqual({ kind: 'day', dayStart: at('2024-05-01T00:00:00Z') });
    expect(parseIsoDate('0001-01-01')).toEqual({ kind: 'day', dayStart: at('0001-01-01T00:00:00Z') });
    expect(parseIsoDate('9999-12-31')?.kind).toBe('day');
  });

  it('keeps February 29 of leap years only', () => {
    for (const leap of ['2024-02-29', '2000-02-29', '1600-02-29', '2024-02-29T12:00Z']) {
      expect(parseIsoDate(leap), leap).toBeDefined();
    }
    // Divisible by 4 but by 100 and not by 400, or not divisible by 4 at all: no February 29.
    for (const notLeap of ['2023-02-29', '1900-02-29', '2100-02-29', '2023-02-29T12:00Z']) {
      expect(parseIsoDate(notLeap), notLeap).toBeUndefined();
    }
  });

  it('refuses days that do not exist instead of rolling them over', () => {
    for (const text of [
      '2025-02-30',
      '2025-04-31',
      '2025-06-31T00:00Z',
      '2025-00-10',
      '2025-13-01',
      '2025-01-00',
      '2025-01-32',
      '0000-01-01',
    ]) {
      expect(parseIsoDate(text), text).toBeUndefined();
    }
    expect(parseIsoDate('2025-01-31')).toBeDefined();
    expect(parseIsoDate('2025-12-31T23:59:59.999Z')).toBeDefined();
  });

  it('refuses times that do not exist', () => {
    for (const text of ['2025-01-01T24:00', '2025-01-01T23:60', '2025-01-01T23:59:60Z', '2025-01-01T7:00']) {
      expect(parseIsoDate(text), text).toBeUndefined();
    }
  });

  it('reads a date-time without a zone as a wall-clock reading, to the millisecond', () => {
    expect(parseIsoDate('2024-05-01T10:30')).toEqual({
      kind: 'local',
      dayStart: at('2024-05-01T00:00:00Z'),
      wall: at('2024-05-01T10:30:00Z'),
    });
    // Fractions beyond the millisecond are cut off, not rounded.
    const fine = parseIsoDate('2024-05-01T10:30:15.123999999');
    expect(fine?.kind === 'local' && fine.wall).toBe(at('2024-05-01T10:30:15.123Z'));
    const tenth = parseIsoDate('2024-05-01T10:30:15.5');
    expect(tenth?.kind === 'local' && tenth.wall).toBe(at('2024-05-01T10:30:15.500Z'));
  });

  it('applies Z and offsets in every accepted spelling', () => {
    const instant = at('2024-05-01T08:00:00Z');
    for (const text of [
      '2024-05-01T08:00Z',
      '2024-05-01t08:00:00z',
      '2024-05-01T10:00+02',
      '2024-05-01T10:00+0200',
      '2024-05-01T10:00:00+02:00',
      '2024-05-01T05:30-02:30',
      '2024-05-02T07:59+23:59',
    ]) {
      const parsed = parseIsoDate(text);
      expect(parsed?.kind, text).toBe('instant');
      expect(parsed && utcInstantOf(parsed), text).toBe(instant);
    }
    // The day an offset date-time names is its own calendar day, before the offset is applied.
    expect(parseIsoDate('2024-05-01T23:00-05:00')).toMatchObject({ dayStart: at('2024-05-01T00:00:00Z') });
    for (const text of [
      '2024-05-01T10:00+24:00',
      '2024-05-01T10:00+02:60',
      '2024-05-01T10:00+2',
      '2024-05-01T10:00 UTC',
    ]) {
      expect(parseIsoDate(text), text).toBeUndefined();
    }
  });

  it('refuses other forms and text that only looks like a date', () => {
    for (const text of [
      '',
      'yesterday',
      '20240501',
      '2024-W18-3',
      '2024-122',
      '2024-5-1',
      '+002024-05-01',
      '2024-05-01 10:00',
      '2024-05-01T10',
      ' 2024-05-01',
      '2024-05-01\n',
      '1714550400',
      'Wed, 01 May 2024 10:00:00 GMT',
    ]) {
      expect(parseIsoDate(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('gives the UTC instant of each kind', () => {
    expect(utcInstantOf(parseIsoDate('2024-05-01')!)).toBe(at('2024-05-01T00:00:00Z'));
    expect(utcInstantOf(parseIsoDate('2024-05-01T10:00')!)).toBe(at('2024-05-01T10:00:00Z'));
    expect(utcInstantOf(parseIsoDate('2024-05-01T10:00+01:00')!)).toBe(at('2024-05-01T09:00:00Z'));
  });
});
