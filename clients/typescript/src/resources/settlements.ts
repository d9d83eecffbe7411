import type { QueryParameters, SuccessBody } from '../api-types';
import type { Transport } from '../http/transport';

export type ListSettlementsQuery = QueryParameters<'/api/settlements', 'get'>;
export type SettlementList = SuccessBody<'/api/settlements', 'get'>;
export type Settlement = SuccessBody<'/api/settlements/{settlement_id}', 'get'>;

/** Settlements to the merchant's bank account, with a payout credential (scope `payouts:read`). */
export class Settlements {
  constructor(private readonly http: Transport) {}

  /** One page, newest first. */
  list(query: ListSettlementsQuery = {}): Promise<SettlementList> {
    return this.http.request({ method: 'GET', path: '/api/settlements', query });
  }

  /** One settlement with its balance transactions. */
  get(settlementId: string): Promise<Settlement> {
    return this.http.request({ method: 'GET', path: `/api/settlements/${encodeURIComponent(settlementId)}` });
  }
}
