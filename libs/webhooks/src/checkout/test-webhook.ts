import { postWebhook, REQUEST_TIMEOUT_MS } from '../http-delivery';
import {
  ResolvedTarget,
  ResolveHost,
  resolveTarget,
  TargetPolicy,
  TargetRefusedError,
} from '../target-policy';
import { CHECKOUT_SIGNATURE_HEADER, checkoutSignature } from './checkout-signature';
import { CHECKOUT_TEST_WEBHOOK_BODY } from './checkout-webhook-body';

export interface CheckoutTestWebhookOptions {
  /** The payout webhooks' target policy (WEBHOOK_ALLOW_INSECURE_TARGETS for development). */
  policy: TargetPolicy;
  /** DNS for the target; default the system resolver. */
  resolve?: ResolveHost;
  /** Default REQUEST_TIMEOUT_MS (10 s), as every checkout attempt. */
  timeoutMs?: number;
  /** WEBHOOK_PROXY_URL: through the same forward proxy as every other attempt. */
  proxyUrl?: URL;
}

export type CheckoutTestWebhookResult =
  { delivered: true; body: string } | { delivered: false; status?: number; reason: string };

/**
 * `GET /payment/test_webhook` (docs/design.md#test-webhook): one signed POST of the fixed test body to `url`,
 * made now and not stored or retried (the caller is waiting for the answer). The target policy
 * applies as for every webhook. Never throws for what the receiver or the network does: a refused
 * target, a failed connection, a timeout or a non-2xx answer are all `delivered: false` with a
 * reason for people (and `status` when an answer arrived). `secret` is never in a reason.
 */
export async function sendCheckoutTestWebhook(
  url: string,
  secret: string,
  options: CheckoutTestWebhookOptions,
): Promise<CheckoutTestWebhookResult> {
  const body = CHECKOUT_TEST_WEBHOOK_BODY;
  const signature = checkoutSignature(secret, body);
  let target: ResolvedTarget;
  try {
    target = await resolveTarget(url, options.policy, options.resolve);
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      return { delivered: false, reason: `target refused (${error.code}): ${error.message}` };
    }
    throw error;
  }
  const result = await postWebhook(target, body, signature, {
    timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    signatureHeaderName: CHECKOUT_SIGNATURE_HEADER,
    proxyUrl: options.proxyUrl,
  });
  if (result.delivered) return { delivered: true, body };
  const reason = result.error ?? `HTTP ${result.statusCode}: not a 2xx answer`;
  return result.statusCode === null
    ? { delivered: false, reason }
    : { delivered: false, status: result.statusCode, reason };
}
