import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PayoutsClient } from '../client';
import { PayoutsApiError } from '../errors';

/**
 * The client's side of retrying, against a real local HTTP server that answers as a test scripts
 * it (what the service's own answers do is tested against the service in test/e2e/client): the
 * waits, what is retried and what is not, and exactly what is sent.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}
type Script = (request: Seen, response: ServerResponse) => void;

describe('the client over HTTP', () => {
  const server = createServer();
  const seen: Seen[] = [];
  let script: Script[] = [];
  let base: string;

  beforeAll(async () => {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const entry: Seen = {
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const answer =
          script[seen.length] ?? json(500, { error: { code: 'unscripted', message: 'no more answers' } });
        seen.push(entry);
        answer(entry, response);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    script = [];
  });

  const api = (options: Partial<ConstructorParameters<typeof PayoutsClient>[0]> = {}) =>
    new PayoutsClient({ baseUrl: `${base}/sandbox`, token: 'pk_test_abc', retryBaseDelayMs: 20, ...options });
  const created = json(201, { payout_id: 'po_1', status: 'awaiting_choice' });

  it('sends the base address as given, the token, JSON, and a key on every POST only', async () => {
    script = [json(200, { total: 0, limit: 2, offset: 0, data: [] }), created];
    const client = api({ baseUrl: `${base}/behind/a/proxy/sandbox/` });
    await client.payouts.list({ limit: 2, status: undefined, merchant_reference: 'a b&c' });
    await client.payouts.create({ amount: '1.00', merchant_reference: 'r', delivery: 'link' });
    const [get, post] = seen;
    expect(get).toMatchObject({
      method: 'GET',
      url: '/behind/a/proxy/sandbox/api/payout/list?limit=2&merchant_reference=a+b%26c',
    });
    expect(get!.headers.authorization).toBe('Bearer pk_test_abc');
    expect(get!.headers['idempotency-key']).toBeUndefined();
    expect(post).toMatchObject({ method: 'POST', url: '/behind/a/proxy/sandbox/api/payout/create' });
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.headers['idempotency-key']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(JSON.parse(post!.body)).toEqual({ amount: '1.00', merchant_reference: 'r', delivery: 'link' });
  });

  it('retries 503 attempt_unresolved with the same key until the outcome is known', async () => {
    const unresolved = json(503, { error: { code: 'attempt_unresolved', message: 'outcome unknown' } });
    script = [unresolved, unresolved, created];
    const payout = await api().payouts.create({ amount: '1.00', merchant_reference: 'r', delivery: 'link' });
    expect(payout.payout_id).toBe('po_1');
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((request) => request.headers['idempotency-key'])).size).toBe(1);
  });

  it('waits as long as a Retry-After HTTP-date asks, and no longer than retryMaxDelayMs', async () => {
    // HTTP-dates have whole seconds: two seconds ahead is at least one second away.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000);
    script = [
      json(
        429,
        { error: { code: 'rate_limited', message: 'slow down' } },
        { 'retry-after': at.toUTCString() },
      ),
      created,
    ];
    await api().payouts.create({ amount: '1.00', merchant_reference: 'r', delivery: 'link' });
    expect(seen[1]!.at).toBeGreaterThanOrEqual(at.getTime() - 5); // the server's clock is this one
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1000);

    seen.length = 0;
    script = [
      json(503, { error: { code: 'overloaded', message: 'busy' } }, { 'retry-after': '3600' }),
      created,
    ];
    await api({ retryMaxDelayMs: 100 }).payouts.create({
      amount: '1.00',
      merchant_reference: 'r',
      delivery: 'link',
    });
    expect(seen[1]!.at - seen[0]!.at).toBeLessThan(1000);
  });

  it('retries 409 idempotency_key_in_progress only after an attempt of its own went unanswered or unresolved', async () => {
    const inProgress = json(409, { error: { code: 'idempotency_key_in_progress', message: 'in progress' } });
    script = [inProgress];
    await expect(api().payouts.cancel('po_1', { idempotencyKey: 'k-1' })).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_key_in_progress',
      idempotencyKey: 'k-1',
    });
    expect(seen).toHaveLength(1);

    seen.length = 0;
    const hangUp: Script = (_request, response) => response.socket?.destroy();
    script = [hangUp, inProgress, json(200, { payout_id: 'po_1', status: 'cancelled' })];
    expect(await api().payouts.cancel('po_1', { idempotencyKey: 'k-2' })).toMatchObject({
      status: 'cancelled',
    });
    expect(seen.map((request) => request.headers['idempotency-key'])).toEqual(['k-2', 'k-2', 'k-2']);

    // After 503 attempt_unresolved the key may still be leased to that attempt; after overloaded
    // (nothing was started) a key in progress is someone else's request.
    seen.length = 0;
    const unresolved = json(503, { error: { code: 'attempt_unresolved', message: 'outcome unknown' } });
    script = [unresolved, inProgress, json(200, { payout_id: 'po_1', status: 'cancelled' })];
    expect(await api().payouts.cancel('po_1', { idempotencyKey: 'k-3' })).toMatchObject({
      status: 'cancelled',
    });
    seen.length = 0;
    const overloaded = json(503, { error: { code: 'overloaded', message: 'busy' } }, { 'retry-after': '0' });
    script = [overloaded, inProgress];
    await expect(api().payouts.cancel('po_1', { idempotencyKey: 'k-4' })).rejects.toMatchObject({
      code: 'idempotency_key_in_progress',
    });
    expect(seen).toHaveLength(2);
  });

  it('abandons an attempt with no answer after timeoutMs and retries it', async () => {
    const never: Script = () => undefined;
    script = [never, json(200, { total: 0, limit: 50, offset: 0, data: [] })];
    const started = Date.now();
    await api({ timeoutMs: 200 }).payouts.list();
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('does not retry other refusals, and reads an answer that is not the service’s as unexpected_response', async () => {
    script = [
      json(
        400,
        { error: { code: 'invalid_amount', message: 'bad amount', param: 'amount' } },
        { 'request-id': 'req_1' },
      ),
    ];
    const refusal = await api()
      .payouts.create({ amount: '1.234', merchant_reference: 'r', delivery: 'link' })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PayoutsApiError);
    expect(refusal).toMatchObject({
      status: 400,
      code: 'invalid_amount',
      message: 'bad amount',
      param: 'amount',
      requestId: 'req_1',
    });

    script.push(
      (_request, response) =>
        void response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'),
    );
    await expect(api().payouts.balance()).rejects.toMatchObject({
      status: 502,
      code: 'unexpected_response',
      message: 'HTTP 502: <h1>Bad gateway</h1>',
      param: undefined,
      requestId: undefined,
    });
    expect(seen).toHaveLength(2);
  });

  it('follows the events feed’s cursor while more follow, sending types comma-separated', async () => {
    const event = (id: string) => ({
      id,
      type: 'payout.created',
      created_at: '2026-01-01T00:00:00.000Z',
      data: {},
    });
    script = [
      json(200, { data: [event('evt_1'), event('evt_2')], has_more: true, next_after: 'evt_2' }),
      json(200, { data: [event('evt_3')], has_more: false, next_after: 'evt_3' }),
    ];
    const ids: string[] = [];
    for await (const item of api().events.listAll({ types: ['payout.created', 'payout.updated'], limit: 2 }))
      ids.push(item.id);
    expect(ids).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(seen.map((request) => request.url)).toEqual([
      '/sandbox/api/events?limit=2&types=payout.created%2Cpayout.updated',
      '/sandbox/api/events?limit=2&after=evt_2&types=payout.created%2Cpayout.updated',
    ]);
  });

  it('refuses options it cannot use', () => {
    expect(() => new PayoutsClient({ baseUrl: 'localhost:3000', token: 't' })).toThrow(TypeError);
    expect(() => new PayoutsClient({ baseUrl: 'http://h/sandbox?x=1', token: 't' })).toThrow(TypeError);
    expect(() => new PayoutsClient({ baseUrl: 'http://h', token: ' ' })).toThrow(TypeError);
    expect(() => new PayoutsClient({ baseUrl: 'http://h', token: 't', maxRetries: -1 })).toThrow(TypeError);
  });
});

function json(status: number, body: unknown, headers: Record<string, string> = {}): Script {
  return (_request, response) =>
    void response
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(body));
}
