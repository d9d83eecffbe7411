import { Module } from '@nestjs/common';
import type { SqlClient } from '@payouts/database';
import { SQL_CLIENT } from '@payouts/platform';
import { IdempotencyStore } from './idempotency-store';
import { IDEMPOTENCY_STORE } from './idempotency.tokens';
import { IdempotentRequests } from './idempotent-requests';

@Module({
  providers: [
    {
      provide: IDEMPOTENCY_STORE,
      useFactory: (db: SqlClient) => new IdempotencyStore(db),
      inject: [SQL_CLIENT],
    },
    IdempotentRequests,
  ],
  exports: [IDEMPOTENCY_STORE, IdempotentRequests],
})
export class IdempotencyModule {}
