// The pure domain: deciders, events, commands and money. No Nest, no Prisma, no I/O, no clock.
export * from './kernel/canonical-json';
export * from './kernel/characters';
export * from './kernel/aggregate';
export * from './kernel/decider';
export * from './kernel/domain-error';
export * from './kernel/email-address';
export * from './kernel/time';
export * from './money/money';
export * from './payout/payout.events';
export * from './payout/payout.commands';
export * from './payout/payout.state';
export * from './payout/payout.evolve';
export * from './payout/payout.limits';
export * from './payout/payout.decide';
export * from './ledger/ledger.events';
export * from './ledger/ledger.commands';
export * from './ledger/ledger.state';
export * from './ledger/ledger.evolve';
export * from './ledger/ledger.movement';
export * from './ledger/ledger.decide';
export * from './ledger/ledger.view';
export * from './ledger/closed-reservations';
export * from './ledger/ledger.funds-flow.decide';
export * from './ledger/ledger.upcast';
export * from './ledger/settlement-schedule';
export * from './pricing/pricing';
export * from './pricing/pricing.events';
export * from './pricing/pricing.evolve';
export * from './float/float.events';
export * from './float/float.evolve';
export * from './float/float.decide';
export * from './order/order.events';
export * from './order/order.commands';
export * from './order/order.state';
export * from './order/order.evolve';
export * from './order/order.decide';
export { ORDER_TEXT_LIMITS } from './order/order.create';
export * from './order/checkout-regions';
export * from './merchant-reference/merchant-reference';
export * from './merchant-reference/merchant-reference.evolve';
export * from './receiving/receiving-details';
export * from './receiving/parse-receiving-details';
export {
  isReceivingDetails,
  isValidAbaRoutingNumber,
  MAX_HOLDER_NAME_LENGTH,
  passesLuhn,
} from './receiving/receiving-details-formats';
