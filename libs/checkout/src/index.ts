// Checkout payments (docs/design.md#checkout): one feature folder per order command, the queries, the
// acquirer port and its simulator.
export * from './acquirer/acquirer.port';
export * from './acquirer/payment-instruments';
export * from './acquirer/simulated-acquirer';
export * from './create-order/create-order.command';
export * from './create-order/create-order.handler';
export * from './pay-order/pay-order.command';
export * from './pay-order/pay-order.handler';
export * from './pay-order/order-payment-lock';
export * from './expire-order/expire-order.handler';
export * from './expire-order/order-expiry';
export * from './orders/order-views';
export * from './orders/order-queries';
export * from './shared/checkout-page-tokens';
export * from './shared/order-ids';
export * from './checkout.module';
