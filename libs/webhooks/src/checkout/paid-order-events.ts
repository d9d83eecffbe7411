import type { Environment } from '@payouts/domain';
import type { SqlQueryable } from '@payouts/database';
import { CHECKOUT_MAX_ATTEMPTS } from '../schedule';
import { newDeliveryId } from '../store/webhook-endpoints';
import { ORDER_PAID } from './checkout-webhook-body';

/** An order.paid event ready to be stored (intake). */
export interface PaidOrderEvent {
  eventId: string;
  accountId: string;
  environment: Environment;
  orderId: number;
  /** The OrderPaid event's id in the event store. */
  sourceEventId: string;
  /** The exact text every attempt sends. */
  body: string;
  /** The order's hook_url, fixed when it was created. */
  targetUrl: string;
  /** The checkout credential that created the order: its API secret signs every attempt. */
  credentialId: string;
}

/**
 * Stores order.paid events from the feed, in the caller's transaction (so they commit with the
 * consumer's progress), each with its automatic delivery due at once: a checkout event's target
 * is part of the event, so there is always one. A duplicate (the same OrderPaid seen again after a
 * restart) inserts nothing: the event id, the source event id and the order are each unique.
 * Returns the new delivery ids.
 */
export async function storePaidOrderEvents(
  tx: SqlQueryable,
  events: readonly PaidOrderEvent[],
  now: (environment: Environment) => Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  const unique = [...new Map(events.map((event) => [event.eventId, event])).values()];
  const column = <T>(pick: (event: PaidOrderEvent) => T) => unique.map(pick);
  const { rows } = await tx.query<{ delivery_id: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::uuid[], $6::text[],
                            $7::text[], $8::text[], $9::timestamptz[], $10::text[])
         AS i(event_id, account_id, environment, order_id, source_event_id, body, target_url, credential_id,
              created_at, delivery_id)
     ), inserted AS (
       INSERT INTO webhook_events (event_id, account_id, environment, event_type, order_id, source_event_id, body,
                                   target_url, credential_id, created_at)
       SELECT event_id, account_id, environment, $11, order_id, source_event_id, body, target_url, credential_id,
              created_at
         FROM input
       ON CONFLICT DO NOTHING
       RETURNING event_id
     )
     INSERT INTO webhook_deliveries (delivery_id, event_id, account_id, environment, trigger, max_attempts,
                                     status, next_attempt_at, created_at)
     SELECT i.delivery_id, i.event_id, i.account_id, i.environment, 'automatic', $12, 'pending', i.created_at, i.created_at
       FROM inserted n
       JOIN input i ON i.event_id = n.event_id
     RETURNING delivery_id`,
    [
      column((e) => e.eventId),
      column((e) => e.accountId),
      column((e) => e.environment),
      column((e) => String(e.orderId)),
      column((e) => e.sourceEventId),
      column((e) => e.body),
      column((e) => e.targetUrl),
      column((e) => e.credentialId),
      column((e) => now(e.environment).toISOString()),
      column(() => newDeliveryId()),
      ORDER_PAID,
      CHECKOUT_MAX_ATTEMPTS,
    ],
  );
  return rows.map((row) => row.delivery_id);
}
