/**
 * The receiver's side of the checkout webhook (docs/webhooks.md#verifying-the-merchant-side): one
 * implementation, the TypeScript client's (`@payouts/client`, clients/typescript, node:crypto
 * only), re-exported here so the service's own tests check its deliveries with the very code
 * merchants use.
 */
export { verifyCheckoutWebhook } from '@payouts/client';
