import type { Environment } from '@payouts/domain';
import type { SqlQueryable } from '@payouts/database';
import { MAX_ATTEMPTS } from '../schedule';
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
