import type { QueryParameters, RequestBody, SuccessBody } from '../api-types';
import type { Transport } from '../http/transport';
import type { IdempotencyOptions } from './payouts';

/** The create-order path of each payment method. */
const ORDER_PATHS = {
  card: '/card',
  mobilewallet: '/payment/mobilewallet',
  cash: '/payment/cash',
  onlinewallet: '/payment/onlinewallet',
  order: '/payment/order',
} as const;

export type OrderMethod = keyof typeof ORDER_PATHS;
export type CreateOrderRequest<M extends OrderMethod = OrderMethod> = RequestBody<
  (typeof ORDER_PATHS)[M],
  'post'
>;
export type CreatedOrder<M extends OrderMethod = OrderMethod> = SuccessBody<(typeof ORDER_PATHS)[M], 'post'>;
export type ListOrdersQuery = QueryParameters<'/payments', 'get'>;
export type OrderList = SuccessBody<'/payments', 'get'>;
export type OrderHistoryRequest = RequestBody<'/payment/history', 'post'>;
export type OrderHistory = SuccessBody<'/payment/history', 'post'>;
export type OrderStatus = SuccessBody<'/payment/status', 'get'>;

/** The checkout endpoints, with a checkout API key (`ck_live_…`/`ck_test_…`). */
export class Orders {
  constructor(private readonly http: Transport) {}

  /** A payment order: send the payer to `order_url`. */
  create<M extends OrderMethod>(
    method: M,
    body: CreateOrderRequest<M>,
    options: IdempotencyOptions = {},
  ): Promise<CreatedOrder<M>> {
    const path = ORDER_PATHS[method];
    if (path === undefined) throw new TypeError(`unknown payment method: ${String(method)}`);
    return this.http.request({ method: 'POST', path, body, ...options });
  }

  /** One page of orders, newest first. */
  list(query: ListOrdersQuery = {}): Promise<OrderList> {
    return this.http.request({ method: 'GET', path: '/payments', query });
  }

  /** Orders created from `start_date` to `end_date`, both inclusive, and their exact sum. */
  history(body: OrderHistoryRequest): Promise<OrderHistory> {
    return this.http.request({ method: 'POST', path: '/payment/history', body });
  }

  status(paymentId: string | number): Promise<OrderStatus> {
    return this.http.request({ method: 'GET', path: '/payment/status', query: { payment_id: paymentId } });
  }
}
