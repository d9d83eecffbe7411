import { DynamicModule, Global, Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { SandboxAwareClock } from '@payouts/clock';
import { AppConfig } from '@payouts/config';
import { migrate, openDatabase } from '@payouts/database';
import type { SqlClient } from '@payouts/database';
import { openEventStore } from '@payouts/event-store';
import type { EventStore } from '@payouts/event-store';
import { Metrics } from '@payouts/observability';
import { createReadModelClient } from '@payouts/read-models';
import type { ReadModelClient } from '@payouts/read-models';
import { APP_CONFIG, CLOCK, EVENT_STORE, METRICS, READ_MODELS, SQL_CLIENT } from './tokens';

/** Closes the database last, after every subscriber stopped in onModuleDestroy. */
@Injectable()
class InfrastructureShutdown implements OnApplicationShutdown {
  private readonly logger = new Logger('Infrastructure');

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(READ_MODELS) private readonly readModels: ReadModelClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close?.();
    await this.readModels.$disconnect();
    await this.db.close();
    this.logger.log('database closed');
  }
}

/**
 * The database (embedded PGlite or a PostgreSQL server), migrated before anything uses it, the
 * event store, the Prisma read-model client, the clock and the metrics, for every app in the process.
 */
@Global()
export class InfrastructureModule {
  static forRoot(config: AppConfig, appName: string): DynamicModule {
    return {
      module: InfrastructureModule,
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        {
          provide: SQL_CLIENT,
          useFactory: async () => {
            const db = await openDatabase({
              databaseUrl: config.databaseUrl,
              dataDir: config.dataDir,
              applicationName: appName,
              maxConnections: config.databasePoolSize,
              onConnectionLost: connectionLossLog(new Logger('Database')),
            });
            const report = await migrate(db);
            new Logger('Migrations').log(
              `applied ${report.applied.length} (${report.applied.join(', ') || 'none new'}), ${report.alreadyApplied.length} already applied`,
            );
            return db;
          },
        },
        {
          provide: SandboxAwareClock,
          useFactory: (db: SqlClient) => new SandboxAwareClock(db),
          inject: [SQL_CLIENT],
        },
        { provide: CLOCK, useExisting: SandboxAwareClock },
        // The app's one metrics registry (docs/design.md#metrics), which times every append.
        { provide: METRICS, useFactory: () => new Metrics() },
        {
          provide: EVENT_STORE,
          // EventStoreDB when EVENTSTORE_CONNECTION_STRING is set (docs/eventstoredb.md), else the database.
          useFactory: (db: SqlClient, metrics: Metrics) =>
            openEventStore(db, { connectionString: config.eventStoreConnectionString, observer: metrics }),
          inject: [SQL_CLIENT, METRICS],
        },
        {
          provide: READ_MODELS,
          useFactory: (db: SqlClient) => createReadModelClient(db),
          inject: [SQL_CLIENT],
        },
        InfrastructureShutdown,
      ],
      exports: [APP_CONFIG, CLOCK, SandboxAwareClock, SQL_CLIENT, EVENT_STORE, READ_MODELS, METRICS],
    };
  }
}

/** One warning a second at most, with how many connections were lost since the last one. */
function connectionLossLog(logger: Logger): (error: Error) => void {
  const INTERVAL_MS = 1_000;
  let lastAt = 0;
  let unreported = 0;
  return (error) => {
    unreported += 1;
    const now = Date.now();
    if (now - lastAt < INTERVAL_MS) return;
    logger.warn(`lost ${unreported} database connection(s), replaced on demand: ${error.message}`);
    lastAt = now;
    unreported = 0;
  };
}
