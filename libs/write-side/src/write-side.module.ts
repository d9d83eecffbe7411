import { Module } from '@nestjs/common';
import type { SqlClient } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { AggregateCache } from './aggregate-cache';
import { Committer } from './committer';
import { LedgerLocks } from './ledger-locks';
import { WritePath } from './write-path';

/** The write path: one per process, since its locks and cache are the process's. */
@Module({
  providers: [
    {
      provide: Committer,
      useFactory: (store: EventStore, db: SqlClient) => new Committer(store, db),
      inject: [EVENT_STORE, SQL_CLIENT],
    },
    AggregateCache,
    LedgerLocks,
    WritePath,
  ],
  exports: [Committer, AggregateCache, LedgerLocks, WritePath],
})
export class WriteSideModule {}
