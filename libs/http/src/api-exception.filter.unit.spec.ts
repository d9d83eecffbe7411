import { DomainError } from '@payouts/domain';
import { StreamVersionConflictError } from '@payouts/event-store';
import { toApiError } from './api-exception.filter';
import { OverloadedError } from './overloaded-error';

describe('toApiError', () => {
  it('answers a ledger without limits as Create does while Balance says unavailable: 409 balance_unavailable', () => {
    const error = toApiError(new DomainError('limits_not_configured', 'no limits'));
    expect([error.status, error.code]).toEqual([409, 'balance_unavailable']);
  });

  it('answers a sustained version conflict as 409 concurrent_update with Retry-After', () => {
    const error = toApiError(new StreamVersionConflictError('ledger-1', 3, 4));
    expect([error.status, error.code, error.headers['Retry-After']]).toEqual([409, 'concurrent_update', '1']);
  });

  it('answers a statement lost with its database connection as 503 service_unavailable with Retry-After, not 500', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      severity: 'FATAL',
    });
    const error = toApiError(terminated);
    expect([error.status, error.code, error.headers['Retry-After']]).toEqual([
      503,
      'service_unavailable',
      '1',
    ]);
    expect(toApiError(new Error('Connection terminated unexpectedly')).status).toBe(503);
  });

  it('answers work refused by a full queue as 503 overloaded with its Retry-After', () => {
    const error = toApiError(new OverloadedError('ledger ledger-1', 2));
    expect([error.status, error.code, error.headers['Retry-After']]).toEqual([503, 'overloaded', '2']);
    expect(error.toBody().error.message).toMatch(/retry/);
  });
});
