import { randomBytes } from 'node:crypto';
import type { Environment } from '@payouts/domain';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import { ORDER_PAID } from '../checkout/checkout-webhook-body';
import { newWebhookSecret } from '../signature';

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
}

interface EndpointRow {
  endpoint_id: string;
  account_id: string;
  environment: Environment;
  url: string;
  created_at: Date | string;
}

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
   * as it is when their next attempt is made: the new URL, signed with the new secret.
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
         url = excluded.url, secret_ciphertext = excluded.secret_ciphertext, created_at = excluded.created_at
       RETURNING endpoint_id, account_id, environment, url, created_at`,
      [accountId, environment, endpointId, url, this.cipher.encrypt(secret, endpointId), now.toISOString()],
    );
    return { endpoint: toEndpoint(rows[0]!), secret };
  }

  async get(accountId: string, environment: Environment): Promise<WebhookEndpoint | null> {
    const { rows } = await this.db.query<EndpointRow>(
      `SELECT endpoint_id, account_id, environment, url, created_at FROM payout_webhook_endpoints
        WHERE account_id = $1 AND environment = $2`,
      [accountId, environment],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
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

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    endpointId: row.endpoint_id,
    accountId: row.account_id,
    environment: row.environment,
    url: row.url,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
