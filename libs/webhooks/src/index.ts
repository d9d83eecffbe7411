/**
 * Signed payout webhooks (issue 5) and checkout webhooks (checkout/), as docs/webhooks.md describes: signing
 * and the merchants' verifiers, the target checks, the HTTP delivery, the delivery log's tables,
 * the transports that carry committed events from the relay to the dispatcher (Kafka, or
 * in-process in the embedded start), and the dispatcher.
 */
export * from './signature';
export * from './verify';
export * from './ip-address';
export * from './target-policy';
export * from './http-delivery';
export * from './proxy-tunnel';
export * from './schedule';
export * from './payout-webhook-event';
export * from './store/webhook-endpoints';
export * from './store/endpoint-health';
export * from './store/webhook-events';
export { EVENT_LOG_PAGE } from './store/webhook-event-log';
export type {
  AttemptLogEntry,
  DeliveryLogEntry,
  DeliveryStatus,
  DeliveryTrigger,
  EventLogEntry,
} from './store/webhook-event-log';
export * from './store/paid-payout-events';
export * from './store/delivery-queue';
export * from './transport/event-transport';
export * from './transport/in-process-transport';
export * from './transport/kafka-transport';
export * from './transport/event-relay';
export * from './dispatcher/payout-intake';
export * from './dispatcher/delivery-scheduler';
export * from './checkout/checkout-webhook-body';
export * from './checkout/checkout-signature';
export * from './checkout/checkout-verify';
export * from './checkout/test-webhook';
export * from './checkout/paid-order-events';
export * from './checkout/order-intake';
export * from './checkout/checkout-webhook-attempts';
