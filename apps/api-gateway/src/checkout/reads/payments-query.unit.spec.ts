import { ApiError } from '@payouts/http';
import { readHistoryBody } from './payments-query';

const range = (start_date: unknown, end_date: unknown) => {
  const { start, end } = readHistoryBody({ start_date, end_date });
  return [start.toISOString(), end.toISOString()];
};

const refusal = (body: unknown): unknown => {
  try {
    readHistoryBody(body);
  } catch (error) {
    return error instanceof ApiError ? [error.status, error.toBody().error.code, error.param] : error;
  }
  return 'accepted';
};

describe('readHistoryBody', () => {
  it('reads a date alone as that day at 00:00 UTC, for end_date too (both ends inclusive)', () => {
    expect(range('2026-01-01', '2026-01-31')).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-31T00:00:00.000Z',
    ]);
  });

  it('reads offsets and a time without a zone (UTC) as the instants they name', () => {
    expect(range('2026-01-01T01:00:00+01:00', '2026-01-31T09:30')).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-31T09:30:00.000Z',
    ]);
  });

  it('rounds start_date finer than a millisecond up and end_date down: rows are whole milliseconds', () => {
    expect(range('2026-01-01T00:00:00.0001Z', '2026-01-31T00:00:00.9999Z')).toEqual([
      '2026-01-01T00:00:00.001Z',
      '2026-01-31T00:00:00.999Z',
    ]);
  });

  it.each([
    ['start_date', { start_date: '0000-01-01', end_date: '2026-01-01' }],
    ['start_date', { start_date: '0001-01-01T00:00:00+01:00', end_date: '2026-01-01' }],
    ['end_date', { start_date: '2026-01-01', end_date: '9999-12-31T23:59:59-05:00' }],
    ['start_date', { start_date: '2026-02-30', end_date: '2026-03-31' }],
    ['end_date', { start_date: '2026-01-01', end_date: '2026-04-31' }],
    ['end_date', { start_date: '2026-01-01', end_date: '2026-01-31T24:00' }],
    ['start_date', { start_date: 20260101, end_date: '2026-01-31' }],
    ['start_date', { end_date: '2026-01-31' }],
    ['end_date', { start_date: '2026-01-01', end_date: null }],
    ['start_date', { start_date: '2026-02-01', end_date: '2026-01-31' }],
  ])('refuses with 400 invalid_request naming %s: %j', (param, body) => {
    expect(refusal(body)).toEqual([400, 'invalid_request', param]);
  });
});
