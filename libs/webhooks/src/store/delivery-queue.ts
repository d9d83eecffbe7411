import { randomBytes } from 'node:crypto';
import type { Environment } from '@payouts/domain';
import type { SqlClient } from '@payouts/database';
import { ORDER_PAID } from '../checkout/checkout-webhook-body';
import { DISABLE_AFTER_FAILING_MS, endpointHealth } from './endpoint-health';
import type { DeliveryStatus, DeliveryTrigger } from './webhook-event-log';

/** A due delivery a dispatcher holds the lease of, with what it needs to make the attempt. */
export interface ClaimedDelivery {
  deliveryId: string;
  eventId: string;
  accountId: string;
  environment: Environment;
  trigger: DeliveryTrigger;
  attemptsMade: number;
  maxAttempts: number;
  body: string;
  leaseToken: string;
  /**
   * A payout event's target: the account's endpoint as it is now. Null when the endpoint was
   * removed since the delivery was scheduled, and for a checkout event.
   */
  endpoint: ClaimedEndpoint | null;
  /**
   * A checkout event's target, fixed when the order was created: its hook_url, and the checkout
   * credential whose API secret signs it. Null for a payout event.
   */
  checkout: { url: string; credentialId: string } | null;
}

/** A payout endpoint as an attempt needs it: where to, and the ciphertexts of the secrets that sign. */
export interface ClaimedEndpoint {
  endpointId: string;
  url: string;
  secretCiphertext: string;
  /**
   * The secret a rotation replaced and when it stops signing (environment clock); null outside an
   * overlap. The signer compares the time itself, at the attempt.
   */
  previous: { secretCiphertext: string; expiresAt: Date } | null;
}

/** What came of one claimed delivery. */
export interface DeliveryOutcome {
  delivery: ClaimedDelivery;
  /** Null when no attempt was made (no endpoint any more): the delivery is cancelled. */
  attempt: {
    number: number;
    /** Null for a checkout event (no endpoint row: its URL is the order's). */
    endpointId: string | null;
    url: string;
    attemptedAt: Date;
    signatureTimestamp: number | null;
    statusCode: number | null;
    latencyMs: number;
    delivered: boolean;
    error: string | null;
    responseBody: string | null;
  } | null;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  finishedAt: Date | null;
}

interface ClaimRow {
  delivery_id: string;
  event_id: string;
  account_id: string;
  environment: Environment;
  trigger: DeliveryTrigger;
  attempts_made: number;
  max_attempts: number;
  body: string;
  event_type: string;
  target_url: string | null;
  credential_id: string | null;
  endpoint_id: string | null;
  url: string | null;
  secret_ciphertext: string | null;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | string | null;
}

/**
 * Due deliveries are claimed in one statement: the rows are picked with FOR UPDATE SKIP LOCKED
 * (two dispatchers claiming at once never get the same row) and leased until the lease runs out
 * (a row whose lease holds is not due for anyone else, so no attempt is made twice while its
 * dispatcher lives). The attempt itself runs outside any transaction: holding a row lock through
 * a 10 s request would give the transaction an id and hold back every reader of the event feed.
 * "Due" is judged on each row's environment clock: the sandbox's follows the sandbox clock.
 * An automatic payout delivery whose endpoint is disabled is held: still pending, never claimed
 * (docs/webhooks.md#disabled-endpoints); tests and manual resends are still sent, one attempt each.
 */
const CLAIM_SQL = `WITH due AS (
    SELECT w.delivery_id FROM webhook_deliveries w
     WHERE w.status = 'pending'
       AND w.next_attempt_at <= $3::timestamptz
       AND w.next_attempt_at <= CASE w.environment WHEN 'sandbox' THEN $2::timestamptz ELSE $1::timestamptz END
       AND (w.lease_expires_at IS NULL OR w.lease_expires_at < now())
       AND NOT (w.trigger = 'automatic'
                AND EXISTS (SELECT 1 FROM payout_webhook_endpoints h
                             WHERE h.account_id = w.account_id AND h.environment = w.environment
                               AND h.disabled_at IS NOT NULL)
                AND NOT EXISTS (SELECT 1 FROM webhook_events o
                                 WHERE o.event_id = w.event_id AND o.event_type = '${ORDER_PAID}'))
     ORDER BY w.next_attempt_at
     LIMIT $4
     FOR UPDATE SKIP LOCKED
  ), claimed AS (
    UPDATE webhook_deliveries d
       SET lease_token = $5, lease_expires_at = now() + make_interval(secs => $6::double precision)
      FROM due WHERE d.delivery_id = due.delivery_id
    RETURNING d.delivery_id, d.event_id, d.account_id, d.environment, d.trigger, d.attempts_made, d.max_attempts
  )
  SELECT c.delivery_id, c.event_id, c.account_id, c.environment, c.trigger, c.attempts_made, c.max_attempts,
         e.body, e.event_type, e.target_url, e.credential_id, p.endpoint_id, p.url, p.secret_ciphertext,
         p.previous_secret_ciphertext, p.previous_secret_expires_at
    FROM claimed c
    JOIN webhook_events e ON e.event_id = c.event_id
    LEFT JOIN payout_webhook_endpoints p ON p.account_id = c.account_id AND p.environment = c.environment
                                        AND e.event_type <> '${ORDER_PAID}'`;

/**
 * An endpoint's run of failures after a batch of its attempts (endpoint-health.ts): a delivered
 * attempt in the batch starts it again from the failures after it; otherwise the run goes on
 * from its first failure, or starts with the batch's.
 */
const FAILING_SINCE = `CASE WHEN h.delivered_at IS NOT NULL THEN h.first_failure_at
                            ELSE coalesce(p.failing_since, h.first_failure_at) END`;
/** The attempt that fails more than 5 days after the run's first failure disables the endpoint. */
const DISABLES = `p.disabled_at IS NULL AND h.last_failure_at IS NOT NULL
  AND ${FAILING_SINCE} < h.last_failure_at - make_interval(secs => ${DISABLE_AFTER_FAILING_MS / 1000})`;
const iso = (sql: string) => `to_char((${sql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One statement (so one round trip, atomic on its own): the attempts are written, and each delivery
 * is moved on only by its lease holder and only while it is pending (not cancelled meanwhile).
 * An attempt made again after a lost lease keeps the first record of its number. The payout
 * endpoints' runs of failures are moved on in the same statement, and an endpoint disabled there.
 */
const RECORD_SQL = `WITH attempts AS (
    INSERT INTO webhook_attempts (delivery_id, attempt_number, event_id, endpoint_id, url, attempted_at,
                                  signature_timestamp, status_code, latency_ms, delivered, error, response_body)
    SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::timestamptz[],
                         $7::bigint[], $8::int[], $9::int[], $10::boolean[], $11::text[], $12::text[])
    ON CONFLICT (delivery_id, attempt_number) DO NOTHING
    RETURNING 1
  ), moved AS (
    UPDATE webhook_deliveries d
       SET status = u.status, attempts_made = u.attempts_made, next_attempt_at = u.next_attempt_at,
           finished_at = u.finished_at, lease_token = NULL, lease_expires_at = NULL
      FROM unnest($13::text[], $14::text[], $15::int[], $16::timestamptz[], $17::timestamptz[], $18::text[])
        AS u(delivery_id, status, attempts_made, next_attempt_at, finished_at, lease_token)
     WHERE d.delivery_id = u.delivery_id AND d.lease_token = u.lease_token AND d.status = 'pending'
    RETURNING 1
  ), health AS (
    UPDATE payout_webhook_endpoints p
       SET failing_since = ${FAILING_SINCE},
           disabled_at = CASE WHEN ${DISABLES} THEN h.last_failure_at ELSE p.disabled_at END,
           disabled_reason = CASE WHEN ${DISABLES}
             THEN 'Disabled automatically: every attempt failed for ${DISABLE_AFTER_FAILING_MS / 86_400_000} days, since '
                  || ${iso(FAILING_SINCE)} || '. Last error: ' || left(coalesce(h.last_error, 'none recorded'), 500)
                  || '. Automatic deliveries are held until the endpoint is enabled again.'
             ELSE p.disabled_reason END
      FROM unnest($19::text[], $20::timestamptz[], $21::timestamptz[], $22::timestamptz[], $23::text[])
        AS h(endpoint_id, delivered_at, first_failure_at, last_failure_at, last_error)
     WHERE p.endpoint_id = h.endpoint_id
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM attempts)::int AS attempts, (SELECT count(*) FROM moved)::int AS moved,
         (SELECT count(*) FROM health)::int AS endpoints`;

/** Pending deliveries up to a cap, on the partial index of pending rows (webhook_deliveries_due). */
const DEPTH_SQL = `SELECT count(*)::int AS depth FROM (
    SELECT 1 FROM webhook_deliveries WHERE status = 'pending' LIMIT $1) pending`;

const DISCARD_SQL = `UPDATE payout_webhook_endpoints
     SET previous_secret_ciphertext = NULL, previous_secret_expires_at = NULL
   WHERE previous_secret_expires_at IS NOT NULL
     AND previous_secret_expires_at <= CASE environment WHEN 'sandbox' THEN $2::timestamptz ELSE $1::timestamptz END
  RETURNING endpoint_id`;

export class DeliveryQueue {
  constructor(private readonly db: SqlClient) {}

  /**
   * The queue's depth: deliveries pending, due now or scheduled for a retry, counted no further
   * than `cap` so that a scrape stays cheap however long the queue (docs/design.md#metrics).
   */
  async depth(cap: number): Promise<number> {
    const { rows } = await this.db.query<{ depth: number }>(DEPTH_SQL, [cap]);
    return rows[0]?.depth ?? 0;
  }

  async claim(options: {
    now: Record<Environment, Date>;
    limit: number;
    leaseMs: number;
  }): Promise<ClaimedDelivery[]> {
    const { production, sandbox } = options.now;
    const latest = production.getTime() > sandbox.getTime() ? production : sandbox;
    const leaseToken = randomBytes(12).toString('hex');
    const { rows } = await this.db.query<ClaimRow>(CLAIM_SQL, [
      production.toISOString(),
      sandbox.toISOString(),
      latest.toISOString(),
      options.limit,
      leaseToken,
      options.leaseMs / 1000,
    ]);
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      eventId: row.event_id,
      accountId: row.account_id,
      environment: row.environment,
      trigger: row.trigger,
      attemptsMade: row.attempts_made,
      maxAttempts: row.max_attempts,
      body: row.body,
      leaseToken,
      endpoint:
        row.endpoint_id !== null && row.url !== null && row.secret_ciphertext !== null
          ? {
              endpointId: row.endpoint_id,
              url: row.url,
              secretCiphertext: row.secret_ciphertext,
              previous:
                row.previous_secret_ciphertext !== null && row.previous_secret_expires_at !== null
                  ? {
                      secretCiphertext: row.previous_secret_ciphertext,
                      expiresAt: new Date(row.previous_secret_expires_at),
                    }
                  : null,
            }
          : null,
      checkout:
        row.event_type === ORDER_PAID && row.target_url !== null && row.credential_id !== null
          ? { url: row.target_url, credentialId: row.credential_id }
          : null,
    }));
  }

  /** Writes the attempts and moves the deliveries on, in one statement. */
  async record(outcomes: readonly DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    type Made = DeliveryOutcome & { attempt: NonNullable<DeliveryOutcome['attempt']> };
    const made = outcomes.filter((o): o is Made => o.attempt !== null);
    const a = (pick: (o: Made) => unknown) => made.map(pick);
    const health = endpointHealth(
      made.flatMap(({ attempt }) =>
        attempt.endpointId === null ? [] : [{ ...attempt, endpointId: attempt.endpointId }],
      ),
    );
    const h = (pick: (line: (typeof health)[number]) => Date | string | null) =>
      health.map((line) => {
        const value = pick(line);
        return value instanceof Date ? value.toISOString() : value;
      });
    await this.db.query(RECORD_SQL, [
      a((o) => o.delivery.deliveryId),
      a((o) => o.attempt.number),
      a((o) => o.delivery.eventId),
      a((o) => o.attempt.endpointId),
      a((o) => o.attempt.url),
      a((o) => o.attempt.attemptedAt.toISOString()),
      a((o) => (o.attempt.signatureTimestamp === null ? null : String(o.attempt.signatureTimestamp))),
      a((o) => o.attempt.statusCode),
      a((o) => o.attempt.latencyMs),
      a((o) => o.attempt.delivered),
      a((o) => o.attempt.error),
      a((o) => o.attempt.responseBody),
      outcomes.map((o) => o.delivery.deliveryId),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.delivery.attemptsMade + (o.attempt ? 1 : 0)),
      outcomes.map((o) => o.nextAttemptAt?.toISOString() ?? null),
      outcomes.map((o) => o.finishedAt?.toISOString() ?? null),
      outcomes.map((o) => o.delivery.leaseToken),
      h((line) => line.endpointId),
      h((line) => line.deliveredAt),
      h((line) => line.firstFailureAt),
      h((line) => line.lastFailureAt),
      h((line) => line.lastError),
    ]);
  }

  /**
   * Forgets the secrets whose overlap after a rotation is over (each endpoint on its own
   * environment clock), so a replaced secret is kept no longer than it signs.
   */
  async discardExpiredSecrets(now: Record<Environment, Date>): Promise<number> {
    const { rows } = await this.db.query(DISCARD_SQL, [
      now.production.toISOString(),
      now.sandbox.toISOString(),
    ]);
    return rows.length;
  }
}
