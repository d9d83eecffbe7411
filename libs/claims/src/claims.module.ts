import { Module } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { APP_CONFIG, SQL_CLIENT } from '@payouts/platform';
import { ClaimsKeys, resolveClaimsKeys } from './claims-keys';
import { PageSessionStore } from './page-session-store';
import { PostgresReceivingDetailsVault } from './postgres-receiving-details-vault';
import { RECEIVING_DETAILS_VAULT } from './receiving-details-vault';
import { VerificationCodeStore } from './verification-code-store';

/** Nest token of the keys, internal to this module's factories (never exported: they are secrets). */
const CLAIMS_KEYS = Symbol('CLAIMS_KEYS');

/**
 * The recipient's claim flow over the SQL client: RECEIVING_DETAILS_VAULT (a
 * PostgresReceivingDetailsVault), VerificationCodeStore and PageSessionStore (inject them by
 * class). Needs only SQL_CLIENT and APP_CONFIG (InfrastructureModule, which is global). The keys
 * come from ENCRYPTION_KEY, or the key file the API gateway uses when it is unset.
 */
@Module({
  providers: [
    {
      provide: CLAIMS_KEYS,
      useFactory: (config: AppConfig): ClaimsKeys => resolveClaimsKeys(config),
      inject: [APP_CONFIG],
    },
    {
      provide: RECEIVING_DETAILS_VAULT,
      useFactory: (db: SqlClient, keys: ClaimsKeys) =>
        new PostgresReceivingDetailsVault(db, {
          current: keys.encryptionKey,
          ...(keys.previous ? { previous: keys.previous.encryptionKey } : {}),
        }),
      inject: [SQL_CLIENT, CLAIMS_KEYS],
    },
    {
      provide: VerificationCodeStore,
      useFactory: (db: SqlClient, keys: ClaimsKeys) =>
        new VerificationCodeStore(db, keys.hmacKey, keys.previous?.hmacKey),
      inject: [SQL_CLIENT, CLAIMS_KEYS],
    },
    {
      provide: PageSessionStore,
      useFactory: (db: SqlClient) => new PageSessionStore(db),
      inject: [SQL_CLIENT],
    },
  ],
  exports: [RECEIVING_DETAILS_VAULT, VerificationCodeStore, PageSessionStore],
})
export class ClaimsModule {}
