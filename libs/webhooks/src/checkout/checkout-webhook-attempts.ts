import type { SqlClient } from '@payouts/database';
import type { Environment } from '@payouts/domain';
import { ORDER_PAID } from './checkout-webhook-body';

/** One attempt to deliver a checkout webhook (an order.paid event) to the order's hook_url. */
export interface CheckoutWebhookAttempt {
  deliveryId: string;
  attemptNumber: number;
  maxAttempts: number;
  orderId: number;
  url: string | null;
  /** The environment's clock (the sandbox clock in the sandbox). */
  attemptedAt: string;
  statusCode: number | null;
  latencyMs: number;
  delivered: boolean;
  error: string | null;
}

// The checkout webhooks' attempts sit in the delivery log's tables beside the payout webhook's
// (docs/webhooks.md): an order.paid event, its delivery and every attempt of it.
const ATTEMPTS_WHERE = `e.account_id = $1 AND e.environment = $2 AND e.event_type = '${ORDER_PAID}'`;
const ATTEMPTS_COUNT_SQL = `SELECT count(*)::int AS total
  FROM webhook_attempts a JOIN webhook_events e ON e.event_id = a.event_id WHERE ${ATTEMPTS_WHERE}`;
const ATTEMPTS_SQL = `SELECT a.delivery_id, a.attempt_number, d.max_attempts, e.order_id::text AS order_id, a.url,
       a.attempted_at, a.status_code, a.latency_ms, a.delivered, a.error
  FROM webhook_attempts a
  JOIN webhook_events e ON e.event_id = a.event_id
  JOIN webhook_deliveries d ON d.delivery_id = a.delivery_id
 WHERE ${ATTEMPTS_WHERE}
 ORDER BY a.attempted_at DESC, a.delivery_id DESC, a.attempt_number DESC
 LIMIT $3 OFFSET $4`;

interface AttemptRow {
  delivery_id: string;
  attempt_number: number;
  max_attempts: number;
  order_id: string;
  url: string | null;
  attempted_at: Date | string;
  status_code: number | null;
  latency_ms: number;
  delivered: boolean;
  error: string | null;
}

/** The checkout webhook's delivery log of one account and environment, newest attempt first. */
export async function checkoutWebhookAttempts(
  db: SqlClient,
  accountId: string,
  environment: Environment,
  page: { limit: number; offset: number },
): Promise<{ total: number; data: CheckoutWebhookAttempt[] }> {
  const [count, attempts] = await Promise.all([
    db.query<{ total: number }>(ATTEMPTS_COUNT_SQL, [accountId, environment]),
    db.query<AttemptRow>(ATTEMPTS_SQL, [accountId, environment, page.limit, page.offset]),
  ]);
  return {
    total: count.rows[0]?.total ?? 0,
    data: attempts.rows.map((row) => ({
      deliveryId: row.delivery_id,
      attemptNumber: row.attempt_number,
      maxAttempts: row.max_attempts,
      orderId: Number(row.order_id),
      url: row.url,
      attemptedAt: new Date(row.attempted_at).toISOString(),
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      delivered: row.delivered,
      error: row.error,
    })),
  };
}
