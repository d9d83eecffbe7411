import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, loadConfig } from '@payouts/config';
import { createApp } from '@payouts/platform';
import { createServerDatabase } from '@payouts/testing';
import { AllInOneAppModule } from '../../../apps/all-in-one/src/all-in-one-app.module';
import { setupOpenApi } from '../../../apps/api-gateway/src/openapi/openapi';

export const OPERATOR_TOKEN = `op_${randomBytes(16).toString('hex')}`;

export interface Gateway {
  url: string;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

/**
 * The embedded start in this process, listening on a free port (or the PORT in `env`, for a test
 * whose PUBLIC_BASE_URL must name it), on PGlite in memory or a fresh server database (or the
 * DATA_DIR or DATABASE_URL in `env`, which close leaves in place).
 */
export async function startGateway(
  backend: 'pglite' | 'postgres',
  env: Record<string, string> = {},
): Promise<Gateway> {
  const server = backend === 'postgres' && !env.DATABASE_URL ? await createServerDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: ':memory:',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...(server ? { DATABASE_URL: server.url } : {}),
    ...env,
  });
  const { app, url } = await listenEmbedded(config, env.PORT ? config.port : 0);
  return {
    url,
    app,
    close: async () => {
      await app.close();
      await server?.drop();
    },
  };
}

/** Every app's modules in this process with `config`, listening on `port` (0: a free one) on loopback. */
export async function listenEmbedded(
  config: AppConfig,
  port = 0,
): Promise<{ app: NestFastifyApplication; url: string }> {
  const app: NestFastifyApplication = await createApp(
    'test',
    (c) => AllInOneAppModule.forRoot(c),
    config,
    setupOpenApi,
  );
  await app.listen(port, '127.0.0.1');
  const address = app.getHttpServer().address();
  const listening = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${listening}` };
}

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

/** A tiny JSON client: `call('POST', '/path', { token, body, key })`. */
export function client(baseUrl: string) {
  return async function call(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; key?: string; rawBody?: string; contentType?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.key) headers['idempotency-key'] = options.key;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(baseUrl + path, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
}

export type Call = ReturnType<typeof client>;

export interface Merchant {
  accountId: string;
  adminToken: string;
  /** payouts:read + payouts:write, sandbox */
  token: string;
}

/** An approved sandbox account with payouts on, a full-scope payout credential and funds. */
export async function merchant(
  call: Call,
  funds = '1000.00',
  options: { origins?: string[]; name?: string } = {},
): Promise<Merchant> {
  const operator = { token: OPERATOR_TOKEN };
  const created = await call('POST', '/operator/accounts', {
    ...operator,
    body: { name: options.name ?? 'Shop', region: 'US' },
  });
  expect(created.status).toBe(201);
  const { account_id: accountId, admin_token: adminToken } = created.body;
  expect(
    (
      await call('POST', `/operator/accounts/${accountId}/payouts-approval`, {
        ...operator,
        body: { approved: true },
      })
    ).status,
  ).toBe(200);
  if (funds !== '0.00') {
    const credited = await call('POST', `/operator/accounts/${accountId}/funds`, {
      ...operator,
      body: { environment: 'sandbox', amount: funds },
    });
    expect(credited.status).toBe(200);
  }
  const admin = { token: adminToken };
  expect(
    (
      await call('PUT', '/dashboard/payouts-enabled', {
        ...admin,
        body: { environment: 'sandbox', enabled: true },
      })
    ).status,
  ).toBe(200);
  if (options.origins) {
    await call('PUT', '/dashboard/return-url-origins', {
      ...admin,
      body: { environment: 'sandbox', origins: options.origins },
    });
  }
  const credential = await call('POST', '/dashboard/credentials', {
    ...admin,
    body: { kind: 'payout', environment: 'sandbox' },
  });
  expect(credential.status).toBe(201);
  return { accountId, adminToken, token: credential.body.token };
}

let keyCounter = 0;
export const newKey = (): string => `key-${Date.now()}-${(keyCounter += 1)}`;

export const linkBody = (reference: string, amount = '10.00') => ({
  amount,
  merchant_reference: reference,
  delivery: 'link',
  customer_email: `${reference}@example.com`,
});

/** The fields every payout answer starts with (Create's response and the merchant view). */
export const PAYOUT_CORE_FIELDS = [
  'payout_id',
  'status',
  'status_version',
  'amount',
  'fee',
  'total_reserved',
  'currency',
  'funds_released',
];
