import type { Environment } from '@payouts/domain';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import { MAX_ATTEMPTS } from '../schedule';
import { newTestEventId, PAYOUT_TEST, payoutTestBody, WebhookEventType } from '../payout-webhook-event';
import { newDeliveryId } from './webhook-endpoints';

/** A payout.updated event ready to be stored (intake). */
export interface PaidPayoutEvent {
  eventId: string;
  accountId: string;
  environment: Environment;
  payoutId: string;
  /** The PayoutPaid event's id in the event store. */
  sourceEventId: string;
  body: string;
}

export type DeliveryTrigger = 'automatic' | 'test' | 'manual';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface AttemptLogEntry {
  attemptNumber: number;
  attemptedAt: string;
  url: string | null;
  signatureTimestamp: number | null;
  statusCode: number | null;
  latencyMs: number;
  delivered: boolean;
  error: string | null;
  responseBody: string | null;
}

export interface DeliveryLogEntry {
  deliveryId: string;
  trigger: DeliveryTrigger;
  status: DeliveryStatus;
  attemptsMade: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
  finishedAt: string | null;
  attempts: AttemptLogEntry[];
}

export interface EventLogEntry {
  eventId: string;
  type: WebhookEventType;
  environment: Environment;
  payoutId: string | null;
  createdAt: string;
  /** The exact body every attempt sent. */
  body: string;
  deliveries: DeliveryLogEntry[];
}

/** Page sizes of the delivery log (Tiger style: a limit on everything). */
export const EVENT_LOG_PAGE = { default: 20, max: 100 } as const;

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
 * Stores payout.updated events from the feed, in the caller's transaction (so they commit with the
 * consumer's progress), and schedules the first attempt of each at once when the account has an
 * endpoint in that environment. A duplicate (the same PayoutPaid seen again after a restart)
 * inserts nothing: the event id, the source event id and the payout are each unique. Returns the
 * new delivery ids.
 */
export async function storePaidPayoutEvents(
  tx: SqlQueryable,
  events: readonly PaidPayoutEvent[],
  now: (environment: Environment) => Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  const unique = [...new Map(events.map((event) => [event.eventId, event])).values()];
  const column = <T>(pick: (event: PaidPayoutEvent) => T) => unique.map(pick);
  const { rows } = await tx.query<{ delivery_id: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::uuid[], $6::text[],
                            $7::timestamptz[], $8::text[])
         AS i(event_id, account_id, environment, payout_id, source_event_id, body, created_at, delivery_id)
     ), inserted AS (
       INSERT INTO webhook_events (event_id, account_id, environment, event_type, payout_id, source_event_id, body, created_at)
       SELECT event_id, account_id, environment, 'payout.updated', payout_id, source_event_id, body, created_at
         FROM input
       ON CONFLICT DO NOTHING
       RETURNING event_id
     )
     INSERT INTO webhook_deliveries (delivery_id, event_id, account_id, environment, trigger, max_attempts,
                                     status, next_attempt_at, created_at)
     SELECT i.delivery_id, i.event_id, i.account_id, i.environment, 'automatic', $9, 'pending', i.created_at, i.created_at
       FROM inserted n
       JOIN input i ON i.event_id = n.event_id
       JOIN payout_webhook_endpoints p ON p.account_id = i.account_id AND p.environment = i.environment
     RETURNING delivery_id`,
    [
      column((e) => e.eventId),
      column((e) => e.accountId),
      column((e) => e.environment),
      column((e) => e.payoutId),
      column((e) => e.sourceEventId),
      column((e) => e.body),
      column((e) => now(e.environment).toISOString()),
      column(() => newDeliveryId()),
      MAX_ATTEMPTS,
    ],
  );
  return rows.map((row) => row.delivery_id);
}

interface EventRow {
  event_id: string;
  event_type: WebhookEventType;
  environment: Environment;
  payout_id: string | null;
  created_at: Date | string;
  body: string;
}

interface DeliveryRow {
  delivery_id: string;
  event_id: string;
  trigger: DeliveryTrigger;
  status: DeliveryStatus;
  attempts_made: number;
  max_attempts: number;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

interface AttemptRow {
  delivery_id: string;
  attempt_number: number;
  attempted_at: Date | string;
  url: string | null;
  signature_timestamp: string | null;
  status_code: number | null;
  latency_ms: number;
  delivered: boolean;
  error: string | null;
  response_body: string | null;
}

/** What the dashboard does with events: the test event, a manual resend, and the delivery log. */
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
        'SELECT environment FROM webhook_events WHERE event_id = $1 AND account_id = $2',
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
    const where = `account_id = $1 AND environment = $2 AND ($3::text IS NULL OR payout_id = $3)`;
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
      data: await this.withDeliveries(page.rows),
    };
  }

  /** One event of the account, with its deliveries and attempts; null when the account has none such. */
  async get(accountId: string, eventId: string): Promise<EventLogEntry | null> {
    const { rows } = await this.db.query<EventRow>(
      `SELECT event_id, event_type, environment, payout_id, created_at, body FROM webhook_events
        WHERE event_id = $1 AND account_id = $2`,
      [eventId, accountId],
    );
    const [entry] = await this.withDeliveries(rows);
    return entry ?? null;
  }

  private async withDeliveries(events: EventRow[]): Promise<EventLogEntry[]> {
    if (events.length === 0) return [];
    const ids = events.map((event) => event.event_id);
    // One snapshot for both reads. Apart (two pool connections, two snapshots), a delivery could
    // read as failed beside an attempt list that still lacks the attempt that failed it, though
    // the dispatcher writes the two in one statement.
    const [deliveries, attempts] = await this.db.transaction(async (tx) => {
      const [, deliveryRows, attemptRows] = await Promise.all([
        tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'),
        tx.query<DeliveryRow>(
          `SELECT delivery_id, event_id, trigger, status, attempts_made, max_attempts, next_attempt_at, created_at, finished_at
             FROM webhook_deliveries WHERE event_id = ANY($1::text[]) ORDER BY created_at, delivery_id`,
          [ids],
        ),
        tx.query<AttemptRow>(
          `SELECT delivery_id, attempt_number, attempted_at, url, signature_timestamp::text AS signature_timestamp,
                  status_code, latency_ms, delivered, error, response_body
             FROM webhook_attempts WHERE event_id = ANY($1::text[]) ORDER BY delivery_id, attempt_number`,
          [ids],
        ),
      ]);
      return [deliveryRows, attemptRows] as const;
    });
    const attemptsOf = new Map<string, AttemptLogEntry[]>();
    for (const row of attempts.rows) {
      const list = attemptsOf.get(row.delivery_id) ?? [];
      list.push({
        attemptNumber: row.attempt_number,
        attemptedAt: iso(row.attempted_at),
        url: row.url,
        signatureTimestamp: row.signature_timestamp === null ? null : Number(row.signature_timestamp),
        statusCode: row.status_code,
        latencyMs: row.latency_ms,
        delivered: row.delivered,
        error: row.error,
        responseBody: row.response_body,
      });
      attemptsOf.set(row.delivery_id, list);
    }
    const deliveriesOf = new Map<string, DeliveryLogEntry[]>();
    for (const row of deliveries.rows) {
      const list = deliveriesOf.get(row.event_id) ?? [];
      list.push({
        deliveryId: row.delivery_id,
        trigger: row.trigger,
        status: row.status,
        attemptsMade: row.attempts_made,
        maxAttempts: row.max_attempts,
        nextAttemptAt: row.next_attempt_at === null ? null : iso(row.next_attempt_at),
        createdAt: iso(row.created_at),
        finishedAt: row.finished_at === null ? null : iso(row.finished_at),
        attempts: attemptsOf.get(row.delivery_id) ?? [],
      });
      deliveriesOf.set(row.event_id, list);
    }
    return events.map((event) => ({
      eventId: event.event_id,
      type: event.event_type,
      environment: event.environment,
      payoutId: event.payout_id,
      createdAt: iso(event.created_at),
      body: event.body,
      deliveries: deliveriesOf.get(event.event_id) ?? [],
    }));
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

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
