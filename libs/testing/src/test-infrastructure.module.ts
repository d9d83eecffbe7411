import { randomBytes } from 'node:crypto';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { loadConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_MODELS, SQL_CLIENT } from '@payouts/platform';
import { Clock, systemClock } from '@payouts/clock';
import { createReadModelClient } from '@payouts/read-models';

/**
 * The platform's providers over a database a test opened itself (no migration, no shutdown), with
 * a configuration of defaults and a random ENCRYPTION_KEY of its own.
 */
@Global()
@Module({})
export class TestInfrastructureModule {
  static over(db: SqlClient, clock: Clock = systemClock): DynamicModule {
    return {
      module: TestInfrastructureModule,
      providers: [
        { provide: SQL_CLIENT, useValue: db },
        { provide: CLOCK, useValue: clock },
        { provide: EVENT_STORE, useValue: new PostgresEventStore(db) },
        { provide: READ_MODELS, useFactory: () => createReadModelClient(db) },
        {
          provide: APP_CONFIG,
          useValue: loadConfig({ LOG_LEVEL: 'silent', ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
        },
      ],
      exports: [SQL_CLIENT, CLOCK, EVENT_STORE, READ_MODELS, APP_CONFIG],
    };
  }
}
