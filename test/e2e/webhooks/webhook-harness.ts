import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import { createApp, EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { createServerDatabase } from '@payouts/testing';
import { AllInOneAppModule } from '../../../apps/all-in-one/src/all-in-one-app.module';
import { setupOpenApi } from '../../../apps/api-gateway/src/openapi/openapi';
import { WebhookDispatcher } from '../../../apps/webhook-dispatcher/src/webhook-dispatcher.module';
import { Call, client, linkBody, Merchant, merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';

export interface WebhookGateway {
  url: string;
  call: Call;
  app: NestFastifyApplication;
  db: SqlClient;
  store: EventStore;
  dispatcher: WebhookDispatcher;
  close(): Promise<void>;
}

/**
 * The embedded start (every app's modules in this process) on PGlite in memory or a fresh
 * PostgreSQL server database, with the app's own event store and dispatcher within reach.
 */
export async function startWebhookGateway(
  options: { backend?: 'pglite' | 'postgres'; env?: Record<string, string> } = {},
): Promise<WebhookGateway> {
  const server = options.backend === 'postgres' ? await createServerDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: ':memory:',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_POLL_MS: '20',
    ...(server ? { DATABASE_URL: server.url } : {}),
    ...options.env,
  });
  const app = await createApp('test', (c) => AllInOneAppModule.forRoot(c), config, setupOpenApi);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    call: client(url),
    app,
    db: app.get<SqlClient>(SQL_CLIENT),
    store: app.get<EventStore>(EVENT_STORE),
    dispatcher: app.get(WebhookDispatcher),
    close: async () => {
      await app.close();
      await server?.drop();
    },
  };
}

/** A merchant with a payout created through the API (awaiting_choice). */
export async function merchantWithPayout(
  call: Call,
  reference: string,
): Promise<Merchant & { payoutId: string }> {
  const shop = await merchant(call);
  const created = await call('POST', '/sandbox/api/payout/create', {
    token: shop.token,
    key: newKey(),
    body: linkBody(reference),
  });
  expect(created.status).toBe(201);
  return { ...shop, payoutId: created.body.payout_id as string };
}
