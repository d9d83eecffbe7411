import { createHmac, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFreshDatabase } from './fresh-database';
import { exited, freePort, startProcess, waitReady } from './server-processes';

export interface WebhookFigures {
  orders: number;
  /** From the first payment to the last webhook received, over the orders. */
  pipelinePerSecond: number;
  /** The same bodies signed and POSTed to the same receiver by a plain loop, same concurrency. */
  barePerSecond: number;
  badSignatures: number;
}

const CONCURRENCY = 16;

/**
 * Checkout-webhook deliveries/s to a loopback receiver: the embedded start (every app in one
 * process, in-process relay) on its own fresh database pays `orders` wallet orders through the
 * hosted page, and the receiver counts the webhooks and checks each signature; beside it a bare
 * loop signs and POSTs the same number of bodies to the same receiver.
 */
export async function runCheckoutWebhooks(
  serverUrl: string,
  dist: string,
  orders: number,
): Promise<WebhookFigures> {
  const receiver = await startReceiver();
  const database = await createFreshDatabase(serverUrl, 'checkout_webhook_bench');
  const port = await freePort();
  const operatorToken = `op_${randomBytes(16).toString('hex')}`;
  const app = await startProcess('all-in-one', [join(dist, 'apps/all-in-one/src/main.js')], {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    OPERATOR_TOKEN: operatorToken,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    WEBHOOK_POLL_MS: '20',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/health/ready`, app);
    const json = async (method: string, path: string, token: string, body: unknown) => {
      const response = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, string>>;
    };
    const account = await json('POST', '/operator/accounts', operatorToken, {
      name: 'Bench shop',
      region: 'US',
    });
    await json('PUT', '/dashboard/checkout-webhook', account.admin_token!, {
      environment: 'sandbox',
      url: `${receiver.url}/hooks`,
    });
    const key = await json('POST', '/dashboard/credentials', account.admin_token!, {
      kind: 'checkout',
      environment: 'sandbox',
    });
    receiver.secret = key.secret!;
    const pages: string[] = [];
    for (let i = 0; i < orders; i += 1) {
      const created = await json('POST', '/sandbox/payment/cash', key.token!, {
        amount: 10.5,
        currency: 'USD',
        customer: `payer-${i}@example.com`,
        product: 'Bench product',
      });
      pages.push(`${base}${new URL(created.order_url!).pathname}`);
    }
    const started = performance.now();
    await inParallel(pages, CONCURRENCY, payThroughPage);
    await receiver.waitFor(orders);
    const pipelineSeconds = (receiver.lastAt - started) / 1000;
    const badSignatures = receiver.bad;
    const bareSeconds = await bareLoop(receiver, orders);
    return {
      orders,
      pipelinePerSecond: orders / pipelineSeconds,
      barePerSecond: orders / bareSeconds,
      badSignatures,
    };
  } finally {
    app.kill('SIGTERM');
    await exited(app);
    await database.drop();
    await receiver.close();
  }
}

async function payThroughPage(url: string): Promise<void> {
  const page = await fetch(url);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const paid = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: csrf, wallet_account: 'bench-wallet' }).toString(),
  });
  await paid.text();
  if (paid.status !== 303) throw new Error(`paying ${url}: ${paid.status}`);
}

interface Receiver {
  url: string;
  secret: string;
  count: number;
  bad: number;
  lastAt: number;
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let waiting: { count: number; resolve: () => void } | undefined;
  const receiver: Receiver = {
    url: '',
    secret: '',
    count: 0,
    bad: 0,
    lastAt: 0,
    waitFor: (count) =>
      receiver.count >= count ? Promise.resolve() : new Promise((resolve) => (waiting = { count, resolve })),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const expected = createHmac('sha256', receiver.secret).update(Buffer.concat(chunks)).digest('hex');
      if (request.headers['x-service-signature'] !== expected) receiver.bad += 1;
      receiver.count += 1;
      receiver.lastAt = performance.now();
      response.writeHead(200).end('ok');
      if (waiting && receiver.count >= waiting.count) waiting.resolve();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** The same number of signed bodies POSTed by a plain loop at the same concurrency: seconds taken. */
async function bareLoop(receiver: Receiver, count: number): Promise<number> {
  receiver.count = 0;
  const started = performance.now();
  const ids = Array.from({ length: count }, (_, i) => i + 1);
  await inParallel(ids, CONCURRENCY, async (id) => {
    const body = `{"order_id":${id},"status":"SUCCESS","amount":10.5,"product":"Bench product"}`;
    const signature = createHmac('sha256', receiver.secret).update(body).digest('hex');
    const answer = await fetch(`${receiver.url}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': signature },
      body,
    });
    await answer.text();
  });
  return (performance.now() - started) / 1000;
}

async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  each: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[(next += 1) - 1]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
