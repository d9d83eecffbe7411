import { CHECKOUT_SIGNATURE_HEADER, checkoutSignature } from '../checkout/checkout-signature';
import { CHECKOUT_RETRY_DELAYS_MS, RETRY_DELAYS_MS } from '../schedule';
import { SIGNATURE_HEADER, signatureHeaderValue } from '../signature';
import type { ClaimedDelivery, ClaimedEndpoint } from '../store/delivery-queue';

/**
 * What differs between a payout and a checkout attempt, and nothing else: where it goes, how it
 * is signed and the schedule after it. The scheduler makes, checks and records both the same way.
 */

/** Signs one body for one attempt: the header's name and value, and the payout signature's `t`. */
export type Signer = (body: string) => { headerName: string; value: string; timestamp: number | null };

export interface AttemptTarget {
  /** The payout endpoint's id; null for a checkout event (its URL is the order's). */
  endpointId: string | null;
  url: string;
  /** Gets the secret; may throw, and the attempt is then logged as failed with nothing sent. */
  signer: () => Signer | Promise<Signer>;
  /** The delays after each failed attempt (schedule.ts). */
  delaysMs: readonly number[];
}

/** Decrypts a payout endpoint's signing secret (throws if it cannot). */
export type EndpointSecretOf = (endpointId: string, ciphertext: string) => string;
/** A checkout credential's API secret; null when the credential is unknown or its secret is gone. */
export type CheckoutSecretOf = (credentialId: string) => Promise<string | null>;

/**
 * A payout webhook (docs/design.md#signature): the account's endpoint now, signed `t=<now>,v1=…`
 * with its secret. During the 24 hours after a rotation (docs/webhooks.md#rotating-the-secret) the
 * secret it replaced signs too: `t=<now>,v1=<new>,v1=<old>`, so a receiver holding either secret
 * accepts. `now` is the attempt's time on the environment clock, which ends the overlap.
 */
export function payoutTarget(
  endpoint: ClaimedEndpoint,
  secretOf: EndpointSecretOf,
  now: Date,
): AttemptTarget {
  return {
    endpointId: endpoint.endpointId,
    url: endpoint.url,
    delaysMs: RETRY_DELAYS_MS,
    signer: () => {
      const secrets = [secretOf(endpoint.endpointId, endpoint.secretCiphertext)];
      const previous = endpoint.previous;
      if (previous && now.getTime() < previous.expiresAt.getTime()) {
        // Stored as it was under the same associated data: the endpoint id did not change.
        secrets.push(secretOf(endpoint.endpointId, previous.secretCiphertext));
      }
      return (body) => {
        // Real unix time, also in the sandbox: the receiver checks it against its own clock.
        const timestamp = Math.floor(Date.now() / 1000);
        return {
          headerName: SIGNATURE_HEADER,
          value: signatureHeaderValue(secrets, timestamp, body),
          timestamp,
        };
      };
    },
  };
}

/**
 * A checkout webhook (docs/design.md#checkout-webhook): the order's hook_url, signed with the API
 * secret of the credential that created the order, read now (never stored with the event, so it
 * stays encrypted at rest in one place).
 */
export function checkoutTarget(
  checkout: NonNullable<ClaimedDelivery['checkout']>,
  secretOf: CheckoutSecretOf | undefined,
): AttemptTarget {
  return {
    endpointId: null,
    url: checkout.url,
    delaysMs: CHECKOUT_RETRY_DELAYS_MS,
    signer: async () => {
      if (!secretOf) throw new Error('this dispatcher has no source of checkout API secrets');
      const secret = await secretOf(checkout.credentialId);
      if (secret === null) {
        throw new Error(
          `checkout credential ${checkout.credentialId} has no API secret (unknown, or its secret was erased)`,
        );
      }
      return (body) => ({
        headerName: CHECKOUT_SIGNATURE_HEADER,
        value: checkoutSignature(secret, body),
        timestamp: null,
      });
    },
  };
}
