import { testBackends } from '@payouts/testing';
import { startStandIn, StandIn } from '../../../../tools/eventstoredb/stand-in-server';
import { describeEventStoreContract, EMBEDDED_TRAITS } from '../testing/event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * The contract suite on the EventStoreDB adapter: against a real server when
 * EVENTSTORE_CONNECTION_STRING is set, else against the stand-in (docs/eventstoredb.md), with its
 * working state in the embedded database (and on the server too under `npm run test:pg`).
 */
const realServer = process.env.EVENTSTORE_CONNECTION_STRING;

for (const backend of testBackends()) {
  let standIn: StandIn | undefined;
  describeEventStoreContract(
    `EventStoreDB adapter on ${realServer ? 'EVENTSTORE_CONNECTION_STRING' : 'the stand-in'}, state on ${backend.name}`,
    async () => {
      standIn = realServer ? undefined : await startStandIn();
      const connectionString = realServer ?? (standIn as StandIn).connectionString;
      const { db, drop } = await backend.open({ poolSize: 40 });
      const store = new EventStoreDbEventStore(connectionString, db);
      return {
        store,
        db,
        close: async () => {
          await store.close();
          await drop();
          await standIn?.stop();
        },
      };
    },
    { ...EMBEDDED_TRAITS, eventsInDatabase: false },
  );
}
