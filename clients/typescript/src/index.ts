/**
 * @payouts/client: the checkout payments and customer payouts API, typed from the OpenAPI document
 * the service serves, with idempotent retries, and the webhook verifiers (README.md).
 */
export { PayoutsClient } from './client';
export type { PayoutsClientOptions } from './client';
export { PayoutsApiError, PayoutsConnectionError } from './errors';
export type { FetchFunction } from './http/transport';
export type { RequestBody, QueryParameters, SuccessBody, ApiPath } from './api-types';
export type * from './resources/payouts';
export type * from './resources/orders';
export type * from './resources/balance-transactions';
export type * from './resources/settlements';
export type * from './resources/events';
export type { OffsetPage } from './resources/offset-pages';
export {
  DEFAULT_TOLERANCE_SECONDS,
  PAYOUT_SIGNATURE_HEADER,
  parseSignatureHeader,
  verifyPayoutWebhook,
  WebhookSignatureError,
} from './webhooks/payout-webhook';
export type { ParsedSignatureHeader, SignatureFailure, VerifyOptions } from './webhooks/payout-webhook';
export { CHECKOUT_WEBHOOK_SIGNATURE_HEADER, verifyCheckoutWebhook } from './webhooks/checkout-webhook';
/** Every operation and schema of the service's OpenAPI document, as openapi-typescript writes them. */
export type { components, operations, paths } from './generated/openapi';
