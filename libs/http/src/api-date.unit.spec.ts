import { ApiError } from './api-error';
import { apiDateRefusal, parseApiDate } from './api-date';

const iso = (text: string, rounding: 'up' | 'down' = 'up') => parseApiDate(text, rounding)?.toISOString();

describe('parseApiDate', () => {
  it.each([
    ['a date alone, that day at 00:00 UTC', '2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['hours and minutes, UTC', '2026-01-31T09:30Z', '2026-01-31T09:30:00.000Z'],
    ['seconds, UTC', '2026-01-31T09:30:15Z', '2026-01-31T09:30:15.000Z'],
    ['milliseconds', '2026-01-31T09:30:15.123Z', '2026-01-31T09:30:15.123Z'],
    ['one fractional digit', '2026-01-31T09:30:15.5Z', '2026-01-31T09:30:15.500Z'],
    ['no zone, read as UTC', '2026-01-31T09:30:15', '2026-01-31T09:30:15.000Z'],
    ['no zone and no seconds, read as UTC', '2026-01-31T09:30', '2026-01-31T09:30:00.000Z'],
    ['an offset east of UTC', '2026-01-31T10:30:00+01:00', '2026-01-31T09:30:00.000Z'],
    ['an offset west of UTC crossing midnight', '2026-01-30T22:00:00-11:30', '2026-01-31T09:30:00.000Z'],
    ['an offset with minutes crossing a year', '2026-01-01T05:29:59.999+05:30', '2025-12-31T23:59:59.999Z'],
    ['the offset -00:00, UTC', '2026-01-31T09:30:00-00:00', '2026-01-31T09:30:00.000Z'],
    ['the largest offsets', '2026-01-31T23:59:00+23:59', '2026-01-31T00:00:00.000Z'],
    ['a negative largest offset', '2026-01-31T00:00:00-23:59', '2026-01-31T23:59:00.000Z'],
  ])('reads %s', (_case, text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it.each([
    ['29 February of a leap year', '2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['29 February of a year divisible by 400', '2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z'],
    ['29 February of year 4', '0004-02-29', '0004-02-29T00:00:00.000Z'],
    ['31 December', '2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59.999Z'],
    ['30 April', '2026-04-30', '2026-04-30T00:00:00.000Z'],
  ])('accepts %s', (_case, text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it.each([
    ['2025-02-29', 'a common year'],
    ['1900-02-29', 'a century not divisible by 400'],
    ['2100-02-29T00:00:00Z', 'a century not divisible by 400'],
    ['2026-02-30', 'no year has it'],
    ['2024-02-30', 'not even a leap year'],
  ])('refuses 29 or 30 February that does not exist: %s (%s)', (text) => {
    expect(parseApiDate(text, 'up')).toBeUndefined();
  });

  it.each([
    ['31 April', '2026-04-31'],
    ['31 June', '2026-06-31T00:00:00Z'],
    ['31 September', '2026-09-31'],
    ['31 November', '2026-11-31'],
    ['day 32', '2026-01-32'],
    ['day 0', '2026-01-00'],
    ['month 0', '2026-00-10'],
    ['month 13', '2026-13-01'],
    ['hour 24', '2026-01-31T24:00:00Z'],
    ['hour 24 without seconds or zone', '2026-01-31T24:00'],
    ['minute 60', '2026-01-31T23:60:00Z'],
    ['second 60 (a leap second)', '2026-12-31T23:59:60Z'],
    ['an offset of 24 hours', '2026-01-31T00:00:00+24:00'],
    ['an offset of 60 minutes', '2026-01-31T00:00:00+01:60'],
  ])('refuses a value out of its range: %s (%s)', (_case, text) => {
    expect(parseApiDate(text, 'up')).toBeUndefined();
  });

  it.each([
    ['year 0', '0000-01-01T00:00:00Z'],
    ['year 0 as a date alone', '0000-01-01'],
    ['year 0, last millisecond', '0000-12-31T23:59:59.999Z'],
    ['year 1 pushed into year 0 by its offset', '0001-01-01T00:00:00+01:00'],
    ['year 1 pushed into year 0 by a minute of offset', '0001-01-01T00:00:00+00:01'],
    ['year 9999 pushed into year 10000 by its offset', '9999-12-31T23:59:59-05:00'],
    ['the last day of 9999 pushed by a minute of offset', '9999-12-31T23:59:00-00:01'],
    ['a fraction past the last millisecond of 9999', '9999-12-31T23:59:59.9991Z'],
    ['the same as a date-time in -01:00', '9999-12-31T23:00:00-01:00'],
  ])('refuses an instant outside 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z: %s (%s)', (_c, text) => {
    expect(parseApiDate(text, 'up')).toBeUndefined();
    expect(parseApiDate(text, 'down')).toBeUndefined();
  });

  it.each([
    ['the first instant', '0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['the first day as a date alone', '0001-01-01', '0001-01-01T00:00:00.000Z'],
    [
      'the first instant, written in year 0 with an offset',
      '0000-12-31T23:00:00-01:00',
      '0001-01-01T00:00:00.000Z',
    ],
    ['the first instant in +01:00', '0001-01-01T01:00:00+01:00', '0001-01-01T00:00:00.000Z'],
    ['a year under 100, not read as 19xx', '0099-06-15T12:00:00Z', '0099-06-15T12:00:00.000Z'],
    ['the last millisecond', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['the last millisecond in nine digits', '9999-12-31T23:59:59.999000000Z', '9999-12-31T23:59:59.999Z'],
    ['the last day as a date alone', '9999-12-31', '9999-12-31T00:00:00.000Z'],
    ['the last second in -05:00', '9999-12-31T18:59:59-05:00', '9999-12-31T23:59:59.000Z'],
  ])('accepts %s', (_case, text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it('rounds a fraction finer than a millisecond up or down as asked, and an exact one neither way', () => {
    expect(iso('2026-01-31T09:30:15.1231Z', 'up')).toBe('2026-01-31T09:30:15.124Z');
    expect(iso('2026-01-31T09:30:15.1231Z', 'down')).toBe('2026-01-31T09:30:15.123Z');
    expect(iso('2026-01-31T09:30:15.123999999Z', 'down')).toBe('2026-01-31T09:30:15.123Z');
    expect(iso('2026-01-31T23:59:59.9999Z', 'up')).toBe('2026-02-01T00:00:00.000Z');
    expect(iso('2026-01-31T09:30:15.123000000Z', 'up')).toBe('2026-01-31T09:30:15.123Z');
    expect(iso('2026-01-31T09:30:15.123000000Z', 'down')).toBe('2026-01-31T09:30:15.123Z');
  });

  it.each([
    ['an empty text', ''],
    ['words', 'yesterday'],
    ['a number of milliseconds', '1769817600000'],
    ['a five-digit year', '10000-01-01T00:00:00Z'],
    ['a signed year', '-000001-01-01T00:00:00Z'],
    ['a signed year with a plus', '+002026-01-31T00:00:00Z'],
    ['a two-digit year', '26-01-31'],
    ['a month without its zero', '2026-1-31'],
    ['a day without its zero', '2026-01-1'],
    ['a year and month only', '2026-01'],
    ['a year only', '2026'],
    ['a date without dashes', '20260131'],
    ['a time without colons', '2026-01-31T093000Z'],
    ['a lower-case t', '2026-01-31t09:30:00Z'],
    ['a lower-case z', '2026-01-31T09:30:00z'],
    ['a space for the T', '2026-01-31 09:30:00Z'],
    ['a T without a time', '2026-01-31T'],
    ['an hour alone', '2026-01-31T09Z'],
    ['a single-digit hour', '2026-01-31T9:30:00Z'],
    ['a fraction without seconds', '2026-01-31T09:30.5Z'],
    ['a fraction without digits', '2026-01-31T09:30:00.Z'],
    ['a fraction of ten digits', '2026-01-31T09:30:00.1234567891Z'],
    ['a comma for the decimal point', '2026-01-31T09:30:00,5Z'],
    ['a date alone with a zone', '2026-01-31Z'],
    ['an offset without a colon', '2026-01-31T09:30:00+0100'],
    ['an offset of hours alone', '2026-01-31T09:30:00+01'],
    ['an offset with seconds', '2026-01-31T09:30:00+01:00:00'],
    ['Z and an offset', '2026-01-31T09:30:00Z+01:00'],
    ['a zone name', '2026-01-31T09:30:00 UTC'],
    ['a leading space', ' 2026-01-31'],
    ['a trailing space', '2026-01-31 '],
    ['a trailing newline', '2026-01-31\n'],
    ['the format JS Date prints', 'Sat Jan 31 2026 09:30:00 GMT+0000'],
    ['an RFC 2822 date', 'Sat, 31 Jan 2026 09:30:00 +0000'],
    ['a week date', '2026-W05-6'],
    ['an ordinal date', '2026-031'],
    ['non-ASCII digits', '٢٠٢٦-01-31'],
  ])('refuses %s', (_case, text) => {
    expect(parseApiDate(text, 'up')).toBeUndefined();
  });
});

describe('apiDateRefusal', () => {
  it('is 400 invalid_request naming the field, with an example of each form', () => {
    const refusal = apiDateRefusal('start_date');
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal.toBody()).toEqual({
      error: { code: 'invalid_request', message: expect.stringContaining('start_date'), param: 'start_date' },
    });
    expect(refusal.status).toBe(400);
    expect(refusal.message).toContain('2026-01-31');
    expect(refusal.message).toContain('2026-01-31T09:30:00Z');
  });
});
