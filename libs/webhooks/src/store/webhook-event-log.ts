import type { Environment } from '@payouts/domain';
import type { SqlClient } from '@payouts/database';
import { WebhookEventType } from '../payout-webhook-event';

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

export interface EventRow {
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

/** The events given, each with every delivery and attempt, read in one snapshot. */
export async function withDeliveries(db: SqlClient, events: EventRow[]): Promise<EventLogEntry[]> {
  if (events.length === 0) return [];
  const ids = events.map((event) => event.event_id);
  // One snapshot for both reads. Apart (two pool connections, two snapshots), a delivery could
  // read as failed beside an attempt list that still lacks the attempt that failed it, though
  // the dispatcher writes the two in one statement.
  const [deliveries, attempts] = await db.transaction(async (tx) => {
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

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
