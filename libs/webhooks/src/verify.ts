/**
 * The receiver's side of the payout webhook (docs/webhooks.md#signature), for merchants: one
 * implementation, the TypeScript client's (`@payouts/client`, clients/typescript, node:crypto only),
 * re-exported here so the service's own tests and tools check its deliveries with the very code
 * merchants use.
 */
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  verifyPayoutWebhook,
  WebhookSignatureError,
} from '@payouts/client';
export type { ParsedSignatureHeader, SignatureFailure, VerifyOptions } from '@payouts/client';
