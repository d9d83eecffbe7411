import { randomBytes } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ReceivingDetailsVault } from '@payouts/claims';
import { RECEIVING_DETAILS_VAULT } from '@payouts/claims';
import { loadConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { ReceivingDetails } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { ConfirmPayoutCommand } from '@payouts/payouts';
import { EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { Call, client, listenEmbedded, OPERATOR_TOKEN } from '../api/gateway-harness';

/** Where the embedded start keeps its data: a PGlite folder, or a PostgreSQL server database. */
export type Storage = { dataDir: string } | { databaseUrl: string };

export interface WorkerGateway {
  url: string;
  call: Call;
  app: NestFastifyApplication;
  db: SqlClient;
  store: EventStore;
  /** What the hosted pages do when the recipient confirms: save the details, then confirm. */
  confirm(payoutId: string, details: ReceivingDetails): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded start (gateway, projector and this worker) in this process, listening on a free
 * port. Unlike the API harness it keeps its storage when closed, so a test can stop it mid-send
 * and start it again on the same data, and it exposes the database to check what was written.
 */
export async function startWorkerGateway(
  storage: Storage,
  env: Record<string, string> = {},
  encryptionKey: string = randomBytes(32).toString('base64'),
): Promise<WorkerGateway> {
  const config = loadConfig({
    OPERATOR_TOKEN,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: encryptionKey,
    WORKER_POLL_MS: '25',
    RAIL_SIMULATOR_DELAY_MS: '200',
    ...('dataDir' in storage ? { DATA_DIR: storage.dataDir } : { DATABASE_URL: storage.databaseUrl }),
    ...env,
  });
  const { app, url } = await listenEmbedded(config);
  const commands = app.get(CommandBus);
  const vault = app.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT);
  return {
    url,
    call: client(url),
    app,
    db: app.get<SqlClient>(SQL_CLIENT),
    store: app.get<EventStore>(EVENT_STORE),
    confirm: async (payoutId, details) => {
      await vault.save(payoutId, details);
      await commands.execute(new ConfirmPayoutCommand(payoutId, details.method));
    },
    close: () => app.close(),
  };
}

/** Polls Get Payout until `done` holds; fails with the last answer after `timeoutMs`. */
export async function waitForPayout(
  call: Call,
  token: string,
  payoutId: string,
  done: (payout: Record<string, unknown>) => boolean,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  let last: Record<string, unknown> = {};
  while (Date.now() < deadline) {
    const answer = await call('GET', `/sandbox/api/payout/${payoutId}`, { token });
    last = answer.body as Record<string, unknown>;
    if (answer.status === 200 && done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`payout ${payoutId} did not get there in ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}

/** Sandbox test values (docs/sandbox.md). */
export const DETAILS = {
  paid: {
    method: 'bank_transfer',
    accountHolder: 'Ana Example',
    routingNumber: '011000015',
    accountNumber: '000123456789',
  },
  failed: {
    method: 'bank_transfer',
    accountHolder: 'Ana Example',
    routingNumber: '011000015',
    accountNumber: '000100000002',
  },
  review: { method: 'wallet', walletHandle: 'review@example.com' },
} satisfies Record<string, ReceivingDetails>;
