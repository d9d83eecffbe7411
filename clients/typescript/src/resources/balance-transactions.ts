import type { QueryParameters, SuccessBody } from '../api-types';
import type { Transport } from '../http/transport';
import { offsetPages } from './offset-pages';

export type ListBalanceTransactionsQuery = QueryParameters<'/api/balance/transactions', 'get'>;
export type BalanceTransactionList = SuccessBody<'/api/balance/transactions', 'get'>;
export type BalanceTransaction = BalanceTransactionList['data'][number];

/** The balance's movements, with a payout credential (scope `payouts:read`). */
export class BalanceTransactions {
  constructor(private readonly http: Transport) {}

  /** One page, newest first. */
  list(query: ListBalanceTransactionsQuery = {}): Promise<BalanceTransactionList> {
    return this.http.request({ method: 'GET', path: '/api/balance/transactions', query });
  }

  /** Every transaction the query matches, over every page (`limit` is the page size). */
  listAll(query: ListBalanceTransactionsQuery = {}): AsyncGenerator<BalanceTransaction, void, undefined> {
    return offsetPages((offset) => this.list({ ...query, offset }), query.offset ?? 0);
  }
}
