import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { SqlClient } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { WebhookDispatcher } from '../../../apps/webhook-dispatcher/src/webhook-dispatcher.module';
import { Call, client, linkBody, Merchant, merchant, newKey, startGateway } from '../api/gateway-harness';

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
  const gateway = await startGateway(options.backend ?? 'pglite', { WEBHOOK_POLL_MS: '20', ...options.env });
  const { app, url } = gateway;
  return {
    url,
    call: client(url),
    app,
    db: app.get<SqlClient>(SQL_CLIENT),
    store: app.get<EventStore>(EVENT_STORE),
    dispatcher: app.get(WebhookDispatcher),
    close: () => gateway.close(),
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
