import { endpointHealth } from './endpoint-health';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const failed = (endpointId: string, minute: number, error = 'HTTP 500: not a 2xx answer') => ({
  endpointId,
  attemptedAt: at(minute),
  delivered: false,
  error,
});
const delivered = (endpointId: string, minute: number) => ({
  endpointId,
  attemptedAt: at(minute),
  delivered: true,
  error: null,
});

describe('what a batch of attempts says of each payout endpoint', () => {
  it('keeps the first and last failures of a run with no delivered attempt', () => {
    expect(endpointHealth([failed('we_b', 3, 'timeout'), failed('we_b', 1)])).toEqual([
      {
        endpointId: 'we_b',
        deliveredAt: null,
        firstFailureAt: at(1),
        lastFailureAt: at(3),
        lastError: 'timeout',
      },
    ]);
  });

  it('counts only the failures after the last delivered attempt, in attempt time order', () => {
    const lines = endpointHealth([
      failed('we_a', 5),
      delivered('we_a', 4),
      failed('we_a', 1),
      failed('we_a', 6),
    ]);
    expect(lines).toEqual([
      {
        endpointId: 'we_a',
        deliveredAt: at(4),
        firstFailureAt: at(5),
        lastFailureAt: at(6),
        lastError: 'HTTP 500: not a 2xx answer',
      },
    ]);
    expect(endpointHealth([failed('we_a', 1), delivered('we_a', 2)])).toEqual([
      { endpointId: 'we_a', deliveredAt: at(2), firstFailureAt: null, lastFailureAt: null, lastError: null },
    ]);
  });

  it('gives one line per endpoint, sorted by id so that writers lock rows in one order', () => {
    const lines = endpointHealth([
      failed('we_c', 1),
      failed('we_a', 1),
      delivered('we_b', 1),
      failed('we_a', 2),
    ]);
    expect(lines.map((line) => line.endpointId)).toEqual(['we_a', 'we_b', 'we_c']);
    expect(endpointHealth([])).toEqual([]);
  });
});
