import { testBackends } from '@payouts/testing';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { describeEventStoreContract, SERVER_TRAITS } from './testing/event-store.contract';

// One contract suite on every reachable backend: PGlite always, the server when DATABASE_URL is
// set (TEST_BACKENDS=postgres in `npm run test:pg` runs only the server, which `npm test` did not).
for (const backend of testBackends()) {
  describeEventStoreContract(
    `PostgreSQL adapter on ${backend.name === 'pglite' ? 'embedded PGlite' : 'a PostgreSQL server'}`,
    async () => {
      // Enough connections for the contract's 24 concurrent writers and their follower.
      const { db, drop } = await backend.open({ poolSize: 40 });
      const store = new PostgresEventStore(db);
      return {
        store,
        db,
        close: async () => {
          await store.close();
          await drop();
        },
      };
    },
    backend.name === 'postgres' ? SERVER_TRAITS : undefined,
  );
}
