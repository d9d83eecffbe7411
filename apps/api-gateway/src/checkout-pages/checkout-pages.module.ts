import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { resolveEncryptionKey } from '@payouts/accounts';
import { CheckoutModule } from '@payouts/checkout';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { GatewayAccountsModule } from '../accounts.module';
import { CheckoutCsrf } from './checkout-csrf';
import { CheckoutPagesController } from './checkout-pages.controller';

/** The hosted checkout page (its form posts use the recipient pages' form parser, form-body.ts). */
@Module({
  imports: [CqrsModule, CheckoutModule, GatewayAccountsModule],
  controllers: [CheckoutPagesController],
  providers: [
    {
      provide: CheckoutCsrf,
      useFactory: (config: AppConfig) => new CheckoutCsrf(resolveEncryptionKey(config)),
      inject: [APP_CONFIG],
    },
  ],
})
export class CheckoutPagesModule {}
