import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { resolveEncryptionKeys } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { APP_CONFIG, SQL_CLIENT } from '@payouts/platform';
import { WriteSideModule } from '@payouts/write-side';
import { ACQUIRER } from './acquirer/acquirer.port';
import { SimulatedAcquirer } from './acquirer/simulated-acquirer';
import { CreateOrderHandler } from './create-order/create-order.handler';
import { ExpireOrderHandler } from './expire-order/expire-order.handler';
import { OrderQueries } from './orders/order-queries';
import { OrderPaymentLock } from './pay-order/order-payment-lock';
import { PayOrderHandler } from './pay-order/pay-order.handler';
import { CheckoutPageTokens } from './shared/checkout-page-tokens';
import { OrderIds } from './shared/order-ids';

/**
 * Checkout orders (docs/design.md#checkout): the order commands on the write path, their queries, the
 * order ids, the hosted pages' tokens (keyed from ENCRYPTION_KEY) and the acquirer (its simulator).
 */
@Module({
  imports: [CqrsModule, WriteSideModule],
  providers: [
    {
      provide: CheckoutPageTokens,
      useFactory: (config: AppConfig) => CheckoutPageTokens.fromEncryptionKey(resolveEncryptionKeys(config)),
      inject: [APP_CONFIG],
    },
    { provide: OrderIds, useFactory: (db: SqlClient) => new OrderIds(db), inject: [SQL_CLIENT] },
    { provide: OrderQueries, useFactory: (db: SqlClient) => new OrderQueries(db), inject: [SQL_CLIENT] },
    { provide: ACQUIRER, useClass: SimulatedAcquirer },
    {
      provide: OrderPaymentLock,
      useFactory: (db: SqlClient) => new OrderPaymentLock(db),
      inject: [SQL_CLIENT],
    },
    CreateOrderHandler,
    PayOrderHandler,
    ExpireOrderHandler,
  ],
  exports: [CheckoutPageTokens, OrderIds, OrderQueries],
})
export class CheckoutModule {}
