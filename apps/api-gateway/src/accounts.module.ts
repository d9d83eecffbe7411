import { Module } from '@nestjs/common';
import { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { APP_CONFIG, SQL_CLIENT } from '@payouts/platform';
import { resolveEncryptionKeys } from '@payouts/accounts';
import { ACCOUNTS } from './gateway.tokens';

/**
 * The one AccountsRepository of the gateway (ACCOUNTS), for the merchant API and administration
 * and for the recipient's pages (which name the paying merchant) alike.
 */
@Module({
  providers: [
    {
      provide: ACCOUNTS,
      useFactory: (db: SqlClient, config: AppConfig) =>
        new AccountsRepository(db, resolveEncryptionKeys(config)),
      inject: [SQL_CLIENT, APP_CONFIG],
    },
  ],
  exports: [ACCOUNTS],
})
export class GatewayAccountsModule {}
