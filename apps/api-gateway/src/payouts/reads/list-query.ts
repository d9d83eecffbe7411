import { PAYOUT_STATUSES, PAYOUT_TEXT_LIMITS } from '@payouts/domain';
import type { ListFilters } from '@payouts/payouts';
import { QueryParams } from '../../list-queries/query-params';

/**
 * List Payouts' query (`GET /api/payout/list`): every filter validated; `limit` above 200 is
 * capped, not refused.
 */
export function parseListQuery(query: Record<string, unknown>): ListFilters {
  const params = new QueryParams(query, ['merchant_reference', 'customer_id', 'status', 'since', 'until']);
  const status = params.oneOf('status', PAYOUT_STATUSES);
  const page = params.page();
  return {
    merchantReference: params.text('merchant_reference', PAYOUT_TEXT_LIMITS.merchant_reference),
    customerId: params.text('customer_id', PAYOUT_TEXT_LIMITS.customer_id),
    status,
    since: params.time('since'),
    until: params.time('until'),
    ...page,
  };
}
