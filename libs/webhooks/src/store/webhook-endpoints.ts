import { randomBytes } from 'node:crypto';
import type { Environment } from '@payouts/domain';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import { ORDER_PAID } from '../checkout/checkout-webhook-body';
import { newWebhookSecret } from '../signature';
import { SECRET_OVERLAP_MS } from './endpoint-health';

/** Encrypts secrets at rest (libs/accounts' SecretBox: AES-256-GCM bound to the row's id). */
export interface SecretCipher {
  encrypt(plaintext: string, associatedData: string): string;
  decrypt(stored: string, associatedData: string): string;
}

export interface WebhookEndpoint {
  endpointId: string;
  accountId: string;
  environment: Environment;
  url: string;
  createdAt: string;
  /** The last rotation (environment clock); null if the secret was never rotated since saving. */
  secretRotatedAt: string | null;
  /** Until when the secret a rotation replaced still signs too; null when it no longer does. */
  previousSecretExpiresAt: string | null;
  /** The first failed attempt since the last delivered one; null while the last one delivered. */
  failingSince: string | null;
  /** Set when every attempt had failed for 5 days (endpoint-health.ts); null while enabled. */
  disabledAt: string | null;
  disabledReason: string | null;
}

interface EndpointRow {
  endpoint_id: string;
  account_id: string;
  environment: Environment;
  url: string;
  created_at: Date | string;
  secret_rotated_at: Date | string | null;
  previous_secret_expires_at: Date | string | null;
  failing_since: Date | string | null;
  disabled_at: Date | string | null;
  disabled_reason: string | null;
}

const ENDPOINT_COLUMNS = `endpoint_id, account_id, environment, url, created_at, secret_rotated_at,
  previous_secret_expires_at, failing_since, disabled_at, disabled_reason`;

export const newEndpointId = (): string => `we_${randomBytes(12).toString('hex')}`;
export const newDeliveryId = (): string => `whd_${randomBytes(12).toString('hex')}`;

/**
 * The payout webhook endpoint of each account and environment (docs/design.md#payout-webhooks): one
 * URL and its signing secret. The secret is returned once, by `save`; the table keeps only its
 * ciphertext. The URL must have passed the target checks (target-policy.ts) before it gets here.
 */
export class WebhookEndpoints {
  constructor(
    private readonly db: SqlClient,
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * Sets (or replaces) the endpoint with a new secret. Deliveries still pending go to the endpoint
   * as it is when their next attempt is made: the new URL, signed with the new secret. A new
   * endpoint starts afresh: no earlier secret signs, and it is enabled with no failures counted.
   */
  async save(
    accountId: string,
    environment: Environment,
    url: string,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const endpointId = newEndpointId();
    const secret = newWebhookSecret();
    const { rows } = await this.db.query<EndpointRow>(
      `INSERT INTO payout_webhook_endpoints (account_id, environment, endpoint_id, url, secret_ciphertext, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (account_id, environment) DO UPDATE SET endpoint_id = excluded.endpoint_id,
         url = excluded.url, secret_ciphertext = excluded.secret_ciphertext, created_at = excluded.created_at,
         previous_secret_ciphertext = NULL, previous_secret_expires_at = NULL, secret_rotated_at = NULL,
         failing_since = NULL, disabled_at = NULL, disabled_reason = NULL
       RETURNING ${ENDPOINT_COLUMNS}`,
      [accountId, environment, endpointId, url, this.cipher.encrypt(secret, endpointId), now.toISOString()],
    );
    return { endpoint: toEndpoint(rows[0]!, now), secret };
  }

  /**
   * A new signing secret for the endpoint, keeping its URL (docs/webhooks.md#rotating-the-secret).
   * The secret it replaces keeps signing every attempt, beside the new one, for 24 hours of the
   * environment clock; its ciphertext moves as stored, so it is never decrypted here. Rotating
   * again within those 24 hours drops the older one at once: only the two newest secrets sign.
   * Null when no endpoint is set.
   */
  async rotateSecret(
    accountId: string,
    environment: Environment,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string } | null> {
    const secret = newWebhookSecret();
    return this.db.transaction(async (tx) => {
      const current = await tx.query<{ endpoint_id: string }>(
        `SELECT endpoint_id FROM payout_webhook_endpoints WHERE account_id = $1 AND environment = $2 FOR UPDATE`,
        [accountId, environment],
      );
      const endpointId = current.rows[0]?.endpoint_id;
      if (endpointId === undefined) return null;
      const { rows } = await tx.query<EndpointRow>(
        `UPDATE payout_webhook_endpoints
            SET previous_secret_ciphertext = secret_ciphertext, secret_ciphertext = $3,
                previous_secret_expires_at = $4, secret_rotated_at = $5
          WHERE account_id = $1 AND environment = $2
          RETURNING ${ENDPOINT_COLUMNS}`,
        [
          accountId,
          environment,
          this.cipher.encrypt(secret, endpointId),
          new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString(),
          now.toISOString(),
        ],
      );
      return { endpoint: toEndpoint(rows[0]!, now), secret };
    });
  }

  /**
   * Enables the endpoint again after it was disabled (docs/webhooks.md#disabled-endpoints): the
   * failures counted so far are forgotten, and every pending payout delivery of the account and
   * environment is due at once. Enabling an endpoint that is not disabled changes nothing. Null
   * when no endpoint is set.
   */
  async enable(
    accountId: string,
    environment: Environment,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; wasDisabled: boolean; rescheduledDeliveries: number } | null> {
    return this.db.transaction(async (tx) => {
      const before = await tx.query<{ disabled_at: Date | string | null }>(
        `SELECT disabled_at FROM payout_webhook_endpoints WHERE account_id = $1 AND environment = $2 FOR UPDATE`,
        [accountId, environment],
      );
      if (before.rows.length === 0) return null;
      const wasDisabled = before.rows[0]!.disabled_at !== null;
      const { rows } = await tx.query<EndpointRow>(
        `UPDATE payout_webhook_endpoints
            SET disabled_at = NULL, disabled_reason = NULL,
                failing_since = CASE WHEN disabled_at IS NULL THEN failing_since END
          WHERE account_id = $1 AND environment = $2
          RETURNING ${ENDPOINT_COLUMNS}`,
        [accountId, environment],
      );
      const rescheduled = wasDisabled ? await rescheduleHeld(tx, accountId, environment, now) : 0;
      return { endpoint: toEndpoint(rows[0]!, now), wasDisabled, rescheduledDeliveries: rescheduled };
    });
  }

  /** The endpoint as the dashboard shows it; `now` (environment clock) says whether an overlap runs. */
  async get(accountId: string, environment: Environment, now: Date): Promise<WebhookEndpoint | null> {
    const { rows } = await this.db.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM payout_webhook_endpoints WHERE account_id = $1 AND environment = $2`,
      [accountId, environment],
    );
    return rows[0] ? toEndpoint(rows[0], now) : null;
  }

  /**
   * Stop sending (`DELETE /dashboard/payout-webhook`): the endpoint and its secret are deleted, and
   * every delivery still pending for the account and environment is cancelled in the same
   * transaction. An attempt already on the wire finishes, and is logged, but nothing is sent after
   * it.
   */
  async remove(
    accountId: string,
    environment: Environment,
    now: Date,
  ): Promise<{ removed: boolean; droppedDeliveries: number }> {
    return this.db.transaction(async (tx) => {
      const removed = await tx.query(
        'DELETE FROM payout_webhook_endpoints WHERE account_id = $1 AND environment = $2 RETURNING endpoint_id',
        [accountId, environment],
      );
      const dropped = await cancelPending(tx, accountId, environment, now);
      return { removed: removed.rows.length > 0, droppedDeliveries: dropped };
    });
  }

  /** The secret of an endpoint row, for signing. Throws if the ciphertext does not decrypt. */
  secretOf(endpointId: string, ciphertext: string): string {
    return this.cipher.decrypt(ciphertext, endpointId);
  }
}

export async function cancelPending(
  tx: SqlQueryable,
  accountId: string,
  environment: Environment,
  now: Date,
): Promise<number> {
  // Only the payout endpoint's deliveries: a checkout event goes to its order's hook_url, which
  // removing the payout endpoint does not touch.
  const { rows } = await tx.query(
    `UPDATE webhook_deliveries d SET status = 'cancelled', next_attempt_at = NULL, finished_at = $3,
            lease_token = NULL, lease_expires_at = NULL
      WHERE d.account_id = $1 AND d.environment = $2 AND d.status = 'pending'
        AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.event_id = d.event_id AND e.event_type = $4)
      RETURNING d.delivery_id`,
    [accountId, environment, now.toISOString(), ORDER_PAID],
  );
  return rows.length;
}

/** The held payout deliveries of an enabled endpoint, all due now (environment clock). */
async function rescheduleHeld(
  tx: SqlQueryable,
  accountId: string,
  environment: Environment,
  now: Date,
): Promise<number> {
  const { rows } = await tx.query(
    `UPDATE webhook_deliveries d SET next_attempt_at = $3
      WHERE d.account_id = $1 AND d.environment = $2 AND d.status = 'pending'
        AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.event_id = d.event_id AND e.event_type = $4)
      RETURNING d.delivery_id`,
    [accountId, environment, now.toISOString(), ORDER_PAID],
  );
  return rows.length;
}

const isoOrNull = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

function toEndpoint(row: EndpointRow, now: Date): WebhookEndpoint {
  const overlapEnds = isoOrNull(row.previous_secret_expires_at);
  return {
    endpointId: row.endpoint_id,
    accountId: row.account_id,
    environment: row.environment,
    url: row.url,
    createdAt: new Date(row.created_at).toISOString(),
    secretRotatedAt: isoOrNull(row.secret_rotated_at),
    previousSecretExpiresAt:
      overlapEnds !== null && Date.parse(overlapEnds) > now.getTime() ? overlapEnds : null,
    failingSince: isoOrNull(row.failing_since),
    disabledAt: isoOrNull(row.disabled_at),
    disabledReason: row.disabled_reason,
  };
}
