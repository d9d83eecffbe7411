// `npm run eventstoredb:stand-in`: runs the EventStoreDB stand-in until SIGINT or SIGTERM.
// The last line on stdout is the connection string, so a script can read it
// (docs/eventstoredb.md#the-stand-in).
import { startStandIn } from './stand-in-server';

const DEFAULT_PORT = 2113;

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`EVENTSTOREDB_STAND_IN_PORT must be a port number (0 for a free one), not '${value}'`);
  }
  return port;
}

async function main(): Promise<void> {
  const port = portFromEnv(process.env.EVENTSTOREDB_STAND_IN_PORT);
  const host = process.env.EVENTSTOREDB_STAND_IN_HOST || '127.0.0.1';
  const dataDir = process.env.EVENTSTOREDB_STAND_IN_DATA || undefined;
  const standIn = await startStandIn({ port, host, dataDir });

  console.log(`EventStoreDB stand-in listening on ${host}:${standIn.port} (gRPC, no TLS)`);
  console.log(
    dataDir
      ? `events in ${dataDir}: ${standIn.eventCount()} loaded`
      : 'events in memory only (set EVENTSTOREDB_STAND_IN_DATA to keep them)',
  );
  console.log(standIn.connectionString);

  // Messages after the connection string go to stderr, so it stays stdout's last line.
  const shutDown = (signal: NodeJS.Signals): void => {
    console.error(`${signal}: stopping the EventStoreDB stand-in`);
    standIn.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutDown);
  process.once('SIGTERM', shutDown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
