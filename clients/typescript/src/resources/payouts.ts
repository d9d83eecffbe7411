import type { QueryParameters, RequestBody, SuccessBody } from '../api-types';
import type { Transport } from '../http/transport';
import { offsetPages } from './offset-pages';

export type CreatePayoutRequest = RequestBody<'/api/payout/create', 'post'>;
export type CreatedPayout = SuccessBody<'/api/payout/create', 'post'>;
export type Payout = SuccessBody<'/api/payout/{payout_id}', 'get'>;
export type ListPayoutsQuery = QueryParameters<'/api/payout/list', 'get'>;
export type PayoutList = SuccessBody<'/api/payout/list', 'get'>;
export type Balance = SuccessBody<'/api/payout/balance', 'get'>;
export type ClaimLink = SuccessBody<'/api/payout/{payout_id}/link', 'post'>;
export type RedirectSessionRequest = RequestBody<'/api/payout/{payout_id}/session', 'post'>;
export type RedirectSession = SuccessBody<'/api/payout/{payout_id}/session', 'post'>;
export type CancelledPayout = SuccessBody<'/api/payout/{payout_id}/cancel', 'post'>;

/** Every POST takes its own key, or gets a generated one; either way the same on each retry. */
export interface IdempotencyOptions {
  idempotencyKey?: string;
}

/** The payout endpoints, with a payout credential (`pk_live_…`/`pk_test_…`). */
export class Payouts {
  constructor(private readonly http: Transport) {}

  /** Create Payout: funds are reserved on return. Scope `payouts:write`. */
  create(body: CreatePayoutRequest, options: IdempotencyOptions = {}): Promise<CreatedPayout> {
    return this.http.request({ method: 'POST', path: '/api/payout/create', body, ...options });
  }

  get(payoutId: string): Promise<Payout> {
    return this.http.request({ method: 'GET', path: `/api/payout/${encodeURIComponent(payoutId)}` });
  }

  /** One page, newest first. */
  list(query: ListPayoutsQuery = {}): Promise<PayoutList> {
    return this.http.request({ method: 'GET', path: '/api/payout/list', query });
  }

  /** Every payout the query matches, over every page (`limit` is the page size). */
  listAll(query: ListPayoutsQuery = {}): AsyncGenerator<PayoutList['data'][number], void, undefined> {
    return offsetPages((offset) => this.list({ ...query, offset }), query.offset ?? 0);
  }

  balance(): Promise<Balance> {
    return this.http.request({ method: 'GET', path: '/api/payout/balance' });
  }

  /** The current claim link again, or with `rotate: true` a new one (the old one stops working). */
  claimLink(payoutId: string, options: { rotate?: boolean } & IdempotencyOptions = {}): Promise<ClaimLink> {
    const { rotate, idempotencyKey } = options;
    return this.http.request({
      method: 'POST',
      path: `/api/payout/${encodeURIComponent(payoutId)}/link`,
      body: rotate === undefined ? {} : { rotate },
      idempotencyKey,
    });
  }

  /** A single-use handoff to the recipient's pages, for a redirect payout. */
  redirectSession(
    payoutId: string,
    body: RedirectSessionRequest,
    options: IdempotencyOptions = {},
  ): Promise<RedirectSession> {
    return this.http.request({
      method: 'POST',
      path: `/api/payout/${encodeURIComponent(payoutId)}/session`,
      body,
      ...options,
    });
  }

  cancel(payoutId: string, options: IdempotencyOptions = {}): Promise<CancelledPayout> {
    return this.http.request({
      method: 'POST',
      path: `/api/payout/${encodeURIComponent(payoutId)}/cancel`,
      ...options,
    });
  }
}
