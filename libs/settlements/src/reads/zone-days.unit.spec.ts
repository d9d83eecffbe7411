import { zoneDays } from './zone-days';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('zoneDays', () => {
  it('gives UTC days as midnights 24 hours apart, ending with the day of now', () => {
    const { dates, bounds } = zoneDays('UTC', new Date('2026-03-10T23:59:59.999Z'), 3);
    expect(dates).toEqual(['2026-03-08', '2026-03-09', '2026-03-10']);
    expect(iso(bounds)).toEqual([
      '2026-03-08T00:00:00.000Z',
      '2026-03-09T00:00:00.000Z',
      '2026-03-10T00:00:00.000Z',
      '2026-03-11T00:00:00.000Z',
    ]);
  });

  it('takes the day now falls on in the zone, not in UTC', () => {
    // 23:30 UTC on the 10th is already the 11th in Tokyo (UTC+9) and still the 10th in New York.
    const now = new Date('2026-03-10T23:30:00.000Z');
    expect(zoneDays('Asia/Tokyo', now, 1)).toEqual({
      dates: ['2026-03-11'],
      bounds: [new Date('2026-03-10T15:00:00.000Z'), new Date('2026-03-11T15:00:00.000Z')],
    });
    expect(zoneDays('America/New_York', now, 1).dates).toEqual(['2026-03-10']);
  });

  it('makes the day of a daylight-saving change 23 or 25 hours long', () => {
    // New York springs forward on 8 March 2026 and falls back on 1 November 2026.
    const spring = zoneDays('America/New_York', new Date('2026-03-08T12:00:00.000Z'), 1);
    expect(iso(spring.bounds)).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    const autumn = zoneDays('America/New_York', new Date('2026-11-01T12:00:00.000Z'), 1);
    expect(iso(autumn.bounds)).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
  });

  it('starts a day at its first instant when the zone skips midnight', () => {
    // Chile's clocks go from 00:00 straight to 01:00 on 6 September 2026 (UTC−4 to UTC−3): the
    // day starts at 01:00 local, the instant 04:00 UTC, and lasts 23 hours.
    const { bounds } = zoneDays('America/Santiago', new Date('2026-09-06T12:00:00.000Z'), 1);
    expect(iso(bounds)).toEqual(['2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z']);
  });

  it('handles offsets of whole-and-a-quarter hours and the far east of the date line', () => {
    expect(iso(zoneDays('Asia/Kathmandu', new Date('2026-03-10T12:00:00.000Z'), 1).bounds)).toEqual([
      '2026-03-09T18:15:00.000Z',
      '2026-03-10T18:15:00.000Z',
    ]);
    expect(iso(zoneDays('Pacific/Kiritimati', new Date('2026-03-10T12:00:00.000Z'), 1).bounds)).toEqual([
      '2026-03-10T10:00:00.000Z',
      '2026-03-11T10:00:00.000Z',
    ]);
  });

  it('refuses an unknown zone, a count below one and an invalid now', () => {
    expect(() => zoneDays('Mars/Olympus_Mons', new Date(), 30)).toThrow(
      /unknown time zone: "Mars\/Olympus_Mons"/,
    );
    expect(() => zoneDays('UTC', new Date(), 0)).toThrow(RangeError);
    expect(() => zoneDays('UTC', new Date(), 1.5)).toThrow(RangeError);
    expect(() => zoneDays('UTC', new Date('nonsense'), 30)).toThrow(/now is not a valid date/);
  });
});
