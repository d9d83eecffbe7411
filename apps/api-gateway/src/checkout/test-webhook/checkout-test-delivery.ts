import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import type { Environment } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import { sendCheckoutTestWebhook } from '@payouts/webhooks';

export interface CheckoutTestTarget {
  environment: Environment;
  /** The environment's checkout webhook URL, null when none is set. */
  url: string | null;
  /** The checkout credential whose API secret signs the test. */
  credentialId: string;
  /** How the caller sets a URL, for the 409 when none is set (each door says its own way). */
  howToSetUrl: string;
  /** The field the 409 without a URL names (the dashboard's form has one; the API none). */
  urlParam?: string;
}

/**
 * The checkout test webhook (docs/design.md#test-webhook), for Test Webhook and the dashboard's
 * Settings page alike: the fixed test body, one signed attempt now, not stored or retried, under
 * the target policy and through the egress proxy of every webhook. 409 `webhook_not_configured`
 * without a URL or a secret, 502 `webhook_delivery_failed` (with the receiver's status) when the
 * URL did not take it; otherwise the body sent.
 */
export async function deliverCheckoutTest(
  accounts: AccountsRepository,
  config: AppConfig,
  target: CheckoutTestTarget,
): Promise<unknown> {
  if (!target.url) {
    throw new ApiError(
      409,
      'webhook_not_configured',
      `no checkout webhook URL is set for ${target.environment}: ${target.howToSetUrl}`,
      target.urlParam,
    );
  }
  const secret = await accounts.checkoutSecret(target.credentialId);
  if (!secret) throw new ApiError(409, 'webhook_not_configured', 'this key has no API secret to sign with');
  const sent = await sendCheckoutTestWebhook(target.url, secret, {
    policy: { allowInsecure: config.webhooks.allowInsecureTargets },
    proxyUrl: config.webhooks.proxyUrl,
  });
  if (!sent.delivered) {
    const status = sent.status === undefined ? '' : ` (it answered ${sent.status})`;
    throw new ApiError(
      502,
      'webhook_delivery_failed',
      `the webhook URL did not accept the test${status}: ${sent.reason}`,
    );
  }
  return JSON.parse(sent.body) as unknown;
}
