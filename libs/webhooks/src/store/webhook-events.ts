import type { Environment } from '@payouts/domain';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import { newTestEventId, PAYOUT_TEST, PAYOUT_UPDATED, payoutTestBody } from '../payout-webhook-event';
import { newDeliveryId } from './webhook-endpoints';
import { EVENT_LOG_PAGE, EventLogEntry, EventRow, withDeliveries } from './webhook-event-log';

export class NoWebhookEndpointError extends Error {
  constructor() {
    super('no payout webhook endpoint is set for this environment');
  }
}
export class ResendInProgressError extends Error {
  constructor() {
    super('a resend of this event is still waiting to be sent');
  }
}

/**
 * The payout webhook's own events. The table also holds checkout (order.paid) events, which go to
 * each order's hook_url rather than to the payout endpoint: the payout dashboard neither shows nor
 * resends them.
 */
const PAYOUT_EVENTS = `event_type IN ('${PAYOUT_UPDATED}', '${PAYOUT_TEST}')`;

/**
 * What the dashboard does with events: the test event, a manual resend, and the delivery log
 * (read through webhook-event-log.ts). The intake of paid payouts: paid-payout-events.ts.
 */
export class WebhookEvents {
  constructor(private readonly db: SqlClient) {}

  /**
   * A payout.test event with one attempt, due at once, to the environment's endpoint; throws
   * NoWebhookEndpointError when there is none.
   */
  async sendTest(
    accountId: string,
    environment: Environment,
    now: Date,
  ): Promise<{ eventId: string; deliveryId: string }> {
    const eventId = newTestEventId();
    const deliveryId = newDeliveryId();
    return this.db.transaction(async (tx) => {
      await requireEndpoint(tx, accountId, environment);
      await tx.query(
        `INSERT INTO webhook_events (event_id, account_id, environment, event_type, payout_id, source_event_id, body, created_at)
         VALUES ($1, $2, $3, $4, NULL, NULL, $5, $6)`,
        [
          eventId,
          accountId,
          environment,
          PAYOUT_TEST,
          payoutTestBody(eventId, environment, now),
          now.toISOString(),
        ],
      );
      await insertDelivery(tx, { deliveryId, eventId, accountId, environment, trigger: 'test', now });
      return { eventId, deliveryId };
    });
  }

  /**
   * A manual resend: one more attempt of the same body and id, due at once. Null when the account
   * has no such event; NoWebhookEndpointError without an endpoint; ResendInProgressError while an
   * earlier resend of the event is still waiting.
   */
  async resend(
    accountId: string,
    eventId: string,
    now: (environment: Environment) => Date,
  ): Promise<{ deliveryId: string } | null> {
    const deliveryId = newDeliveryId();
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ environment: Environment }>(
        `SELECT environment FROM webhook_events WHERE event_id = $1 AND account_id = $2 AND ${PAYOUT_EVENTS}`,
        [eventId, accountId],
      );
      const environment = rows[0]?.environment;
      if (environment === undefined) return null;
      await requireEndpoint(tx, accountId, environment);
      const waiting = await tx.query(
        `SELECT 1 FROM webhook_deliveries WHERE event_id = $1 AND trigger = 'manual' AND status = 'pending' LIMIT 1`,
        [eventId],
      );
      if (waiting.rows.length > 0) throw new ResendInProgressError();
      await insertDelivery(tx, {
        deliveryId,
        eventId,
        accountId,
        environment,
        trigger: 'manual',
        now: now(environment),
      });
      return { deliveryId };
    });
  }

  /** The account's events in one environment, newest first, each with every delivery and attempt. */
  async list(
    accountId: string,
    environment: Environment,
    filter: { payoutId?: string; limit?: number; offset?: number } = {},
  ): Promise<{ total: number; limit: number; offset: number; data: EventLogEntry[] }> {
    const limit = Math.min(Math.max(filter.limit ?? EVENT_LOG_PAGE.default, 1), EVENT_LOG_PAGE.max);
    const offset = Math.max(filter.offset ?? 0, 0);
    const where = `account_id = $1 AND environment = $2 AND ($3::text IS NULL OR payout_id = $3) AND ${PAYOUT_EVENTS}`;
    const params = [accountId, environment, filter.payoutId ?? null];
    const [count, page] = await Promise.all([
      this.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM webhook_events WHERE ${where}`,
        params,
      ),
      this.db.query<EventRow>(
        `SELECT event_id, event_type, environment, payout_id, created_at, body FROM webhook_events
          WHERE ${where} ORDER BY created_at DESC, event_id DESC LIMIT $4 OFFSET $5`,
        [...params, limit, offset],
      ),
    ]);
    return {
      total: count.rows[0]?.total ?? 0,
      limit,
      offset,
      data: await withDeliveries(this.db, page.rows),
    };
  }

  /** One event of the account, with its deliveries and attempts; null when the account has none such. */
  async get(accountId: string, eventId: string): Promise<EventLogEntry | null> {
    const { rows } = await this.db.query<EventRow>(
      `SELECT event_id, event_type, environment, payout_id, created_at, body FROM webhook_events
        WHERE event_id = $1 AND account_id = $2 AND ${PAYOUT_EVENTS}`,
      [eventId, accountId],
    );
    const [entry] = await withDeliveries(this.db, rows);
    return entry ?? null;
  }
}

async function requireEndpoint(tx: SqlQueryable, accountId: string, environment: Environment): Promise<void> {
  const { rows } = await tx.query(
    'SELECT 1 FROM payout_webhook_endpoints WHERE account_id = $1 AND environment = $2',
    [accountId, environment],
  );
  if (rows.length === 0) throw new NoWebhookEndpointError();
}

/** Tests and manual resends get one attempt: they are asked for by a person who is watching. */
async function insertDelivery(
  tx: SqlQueryable,
  d: {
    deliveryId: string;
    eventId: string;
    accountId: string;
    environment: Environment;
    trigger: 'test' | 'manual';
    now: Date;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_deliveries (delivery_id, event_id, account_id, environment, trigger, max_attempts,
                                     status, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, 1, 'pending', $6, $6)`,
    [d.deliveryId, d.eventId, d.accountId, d.environment, d.trigger, d.now.toISOString()],
  );
}
