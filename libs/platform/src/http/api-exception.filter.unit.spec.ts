import { DomainError } from '@payouts/domain';
import { StreamVersionConflictError } from '@payouts/event-store';
import { toApiError } from './api-exception.filter';

describe('toApiError', () => {
  it('answers a ledger without limits as Create does while Balance says unavailable: 409 balance_unavailable', () => {
    const error = toApiError(new DomainError('limits_not_configured', 'no limits'));
    expect([error.status, error.code]).toEqual([409, 'balance_unavailable']);
  });

  it('answers a sustained version conflict as 409 concurrent_update with Retry-After', () => {
    const error = toApiError(new StreamVersionConflictError('ledger-1', 3, 4));
    expect([error.status, error.code, error.headers['Retry-After']]).toEqual([409, 'concurrent_update', '1']);
  });
});
