import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { PostgresSqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { createServerDatabase } from '@payouts/testing';
import { appendPaidPayouts, payExistingPayout } from '../../../libs/webhooks/src/testing/paid-payouts';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, client, linkBody, merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import { RunningApp, startApp, stop, waitFor200 } from '../spawn-app';

/**
 * Issue 5 section 7, end to end: the built apps as separate processes (api-gateway, projector with
 * the Kafka relay, webhook-dispatcher) on a real Kafka broker (KAFKA_BROKERS) and the PostgreSQL
 * server (DATABASE_URL). Run by `npm run test:kafka` after `npm run build`.
 */
const brokers = process.env.KAFKA_BROKERS ?? '';
const ENCRYPTION_KEY = randomBytes(32).toString('base64');

/**
 * A verifier written from docs/webhooks.md#signature alone, sharing no code with libs/webhooks:
 * HMAC-SHA256 of `<t>.<raw body>` keyed with the secret, hex, compared in constant time, t within 5
 * minutes.
 */
function independentlyVerified(rawBody: string, header: string | undefined, secret: string): number {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) throw new Error(`malformed signature header ${header}`);
  const t = Number(match[1]);
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  if (!timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'))) throw new Error('signature mismatch');
  if (Math.abs(Date.now() / 1000 - t) > 300) throw new Error('stale signature');
  return t;
}

interface Apps {
  gateway: RunningApp;
  projector: RunningApp;
  dispatcher: RunningApp;
}

async function startApps(
  env: Record<string, string>,
  which = ['api-gateway', 'projector', 'webhook-dispatcher'],
) {
  const started: Record<string, RunningApp> = {};
  for (const name of which) started[name] = await startApp(name, env);
  for (const app of Object.values(started)) await waitFor200(app, '/health/ready');
  return started;
}

function kill(app: RunningApp): Promise<number | null> {
  app.process.kill('SIGKILL');
  return app.exited;
}

describe('payout webhooks through Kafka, the apps as processes on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: PostgresSqlClient;
  let store: PostgresEventStore;
  let env: Record<string, string>;
  let apps: Apps;
  let call: Call;
  let receiver: TestReceiver;
  const prefix = `e2e-${randomUUID().slice(0, 8)}.`;

  beforeAll(async () => {
    database = await createServerDatabase();
    db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 4 });
    store = new PostgresEventStore(db);
    receiver = await TestReceiver.start();
    env = {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_TOPIC_PARTITIONS: '3',
      OPERATOR_TOKEN,
      ENCRYPTION_KEY,
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '50',
      PROJECTOR_POLL_MS: '20',
      LOG_LEVEL: 'warn',
    };
    const started = await startApps(env);
    apps = {
      gateway: started['api-gateway']!,
      projector: started.projector!,
      dispatcher: started['webhook-dispatcher']!,
    };
    call = client(apps.gateway.url);
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all(Object.values(apps ?? {}).map((app) => stop(app)));
    expect(codes.every((code) => code === 0)).toBe(true);
    await store?.close();
    await db?.close();
    await receiver?.close();
    await database?.drop();
  }, 60_000);

  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
  });

  const saveEndpoint = async (adminToken: string, url = receiver.url()) => {
    const saved = await call('PUT', '/dashboard/payout-webhook', {
      token: adminToken,
      body: { environment: 'sandbox', url },
    });
    expect(saved.status).toBe(200);
    return saved.body.secret as string;
  };
  const createPayout = async (token: string, reference: string) => {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token,
      key: newKey(),
      body: linkBody(reference),
    });
    expect(created.status).toBe(201);
    return created.body.payout_id as string;
  };
  const deliveriesOf = async (adminToken: string, payoutId: string) => {
    const answer = await call(
      'GET',
      `/dashboard/payout-webhook/events?environment=sandbox&payout_id=${payoutId}`,
      {
        token: adminToken,
      },
    );
    return answer.body.data as { event_id: string; deliveries: any[] }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  it('gives a paid payout exactly one delivered payout.updated, verified independently, and relays its events to Kafka', async () => {
    const shop = await merchant(call);
    const secret = await saveEndpoint(shop.adminToken);
    const payoutId = await createPayout(shop.token, 'kafka-one');
    await payExistingPayout(store, payoutId);

    await receiver.waitForRequests(1, 60_000);
    const [request] = receiver.received;
    independentlyVerified(request!.rawBody, request!.signature, secret);
    const body = JSON.parse(request!.rawBody);
    expect(body).toMatchObject({ type: 'payout.updated', data: { payout_id: payoutId, status: 'paid' } });
    expect(body.id).toMatch(/^evt_/);
    const got = await call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token });
    for (const [field, value] of Object.entries(body.data))
      expect([field, got.body[field]]).toEqual([field, value]);

    // Nothing more arrives, and the log holds one event, delivered once.
    const [event] = await eventually(async () => {
      const events = await deliveriesOf(shop.adminToken, payoutId);
      return events[0]?.deliveries[0]?.status === 'delivered' ? events : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toHaveLength(1);
    expect(event).toMatchObject({ event_id: body.id });
    const { rows } = await db.query('SELECT event_id FROM webhook_events WHERE payout_id = $1', [payoutId]);
    expect(rows).toEqual([{ event_id: body.id }]);

    // The relay's topic holds the payout's events, keyed by its stream id, in order.
    const stream = await store.readStream(`payout-${payoutId}`);
    const seen = await readTopic(
      `${prefix}payout`,
      (key) => key === `payout-${payoutId}`,
      stream.events.length,
    );
    expect(seen.map((m) => m.eventId)).toEqual(stream.events.map((e) => e.eventId));
    expect(seen.map((m) => m.type).slice(-2)).toEqual(['PayoutConfirmed', 'PayoutPaid']);
  }, 120_000);

  it('retries receivers that answer 500, time out or redirect on the sandbox clock’s schedule, re-signed each time', async () => {
    const behaviours = ['500', 'timeout', 'redirect'] as const;
    const receivers: Record<string, TestReceiver> = {};
    const shops: Record<string, { adminToken: string; payoutId: string; secret: string }> = {};
    let elsewhere = 0;
    const redirectTarget: Server = createServer((_req, res) => {
      elsewhere += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => redirectTarget.listen(0, '127.0.0.1', resolve));
    try {
      for (const behaviour of behaviours) {
        const r = await TestReceiver.start();
        r.answer =
          behaviour === '500'
            ? () => ({ status: 500, body: 'busy' })
            : behaviour === 'timeout'
              ? () => 'never'
              : () => ({
                  status: 307,
                  headers: {
                    location: `http://127.0.0.1:${(redirectTarget.address() as AddressInfo).port}/`,
                  },
                });
        receivers[behaviour] = r;
        const shop = await merchant(call);
        const secret = await saveEndpoint(shop.adminToken, r.url());
        const payoutId = await createPayout(shop.token, `kafka-retry-${behaviour}`);
        shops[behaviour] = { adminToken: shop.adminToken, payoutId, secret };
      }
      for (const behaviour of behaviours) await payExistingPayout(store, shops[behaviour]!.payoutId);

      const delivery = async (behaviour: string) =>
        (await deliveriesOf(shops[behaviour]!.adminToken, shops[behaviour]!.payoutId))[0]?.deliveries[0];
      const delays = [30, 300, 3_600, 82_800];
      for (let made = 1; made <= 5; made++) {
        // Every receiver has had attempt `made` (a timeout takes the full 10 s) and it is logged.
        for (const behaviour of behaviours) {
          await receivers[behaviour]!.waitForRequests(made, 60_000);
          await eventually(
            async () => ((await delivery(behaviour))?.attempts_made === made ? true : undefined),
            30_000,
          );
        }
        if (made === 5) break;
        // A new second for the next signatures, then the sandbox clock moves past the next attempt.
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const moved = await call('POST', '/operator/sandbox/clock', {
          token: OPERATOR_TOKEN,
          body: { advance_seconds: delays[made - 1]! + 1 },
        });
        expect(moved.status).toBe(200);
      }

      for (const behaviour of behaviours) {
        const final = await eventually(async () => {
          const d = await delivery(behaviour);
          return d?.status === 'failed' ? d : undefined;
        });
        expect(final).toMatchObject({ attempts_made: 5, next_attempt_at: null });
        // On schedule: each attempt at least the delay after the one before finished (sandbox clock).
        const started = final.attempts.map((a: { attempted_at: string }) => Date.parse(a.attempted_at));
        for (let i = 1; i < 5; i++)
          expect(started[i] - started[i - 1]).toBeGreaterThanOrEqual(delays[i - 1]! * 1000);
        const expectedStatus = behaviour === '500' ? 500 : behaviour === 'redirect' ? 307 : null;
        expect(final.attempts.map((a: { status_code: number | null }) => a.status_code)).toEqual(
          Array(5).fill(expectedStatus),
        );
        if (behaviour === 'timeout') {
          expect(final.attempts.every((a: { error: string }) => a.error.startsWith('timeout'))).toBe(true);
        }
        // Same body and id every time; a fresh, valid signature every time.
        const got = receivers[behaviour]!.received;
        expect(got).toHaveLength(5);
        expect(new Set(got.map((r) => r.rawBody)).size).toBe(1);
        const times = got.map((r) => independentlyVerified(r.rawBody, r.signature, shops[behaviour]!.secret));
        for (let i = 1; i < 5; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
      }
      expect(elsewhere).toBe(0);
    } finally {
      for (const r of Object.values(receivers)) await r.close();
      await new Promise((resolve) => redirectTarget.close(resolve));
    }
  }, 240_000);

  it('shares the work between two dispatcher processes without sending any attempt twice', async () => {
    const second = await startApp('webhook-dispatcher', env);
    try {
      await waitFor200(second, '/health/ready');
      const shop = await merchant(call);
      const secret = await saveEndpoint(shop.adminToken);
      const payoutIds = await appendPaidPayouts(store, shop.accountId, 'sandbox', 100);
      await receiver.waitForRequests(100, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const ids = receiver.received.map((r) => {
        independentlyVerified(r.rawBody, r.signature, secret);
        return JSON.parse(r.rawBody).data.payout_id as string;
      });
      expect(ids).toHaveLength(100);
      expect(new Set(ids)).toEqual(new Set(payoutIds));
      // Both processes did some of the work: each records its attempts under its own lease.
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d USING (delivery_id)
          WHERE d.account_id = $1`,
        [shop.accountId],
      );
      expect(rows[0]!.n).toBe(100);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 120_000);

  it('loses nothing and never makes a second event id when the relay and the dispatcher are killed mid-stream', async () => {
    const shop = await merchant(call);
    const secret = await saveEndpoint(shop.adminToken);
    const payoutIds: string[] = [];
    for (let batch = 0; batch < 15; batch++) {
      payoutIds.push(...(await appendPaidPayouts(store, shop.accountId, 'sandbox', 10)));
      if (batch === 4) {
        await Promise.all([kill(apps.projector), kill(apps.dispatcher)]);
        apps.projector = await startApp('projector', env);
        apps.dispatcher = await startApp('webhook-dispatcher', env);
      }
      if (batch === 9) {
        await kill(apps.dispatcher);
        apps.dispatcher = await startApp('webhook-dispatcher', env);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await waitFor200(apps.projector, '/health/ready');
    await waitFor200(apps.dispatcher, '/health/ready');

    // Attempts cut short by a kill are made again once their lease (30 s) has run out.
    const idOf = new Map<string, Set<string>>();
    await eventually(
      () => {
        idOf.clear();
        for (const r of receiver.received) {
          const body = JSON.parse(r.rawBody);
          independentlyVerified(r.rawBody, r.signature, secret);
          idOf.set(body.data.payout_id, (idOf.get(body.data.payout_id) ?? new Set()).add(body.id));
        }
        return payoutIds.every((id) => idOf.has(id)) ? true : undefined;
      },
      120_000,
      'every paid payout delivered',
    );
    for (const id of payoutIds) expect(idOf.get(id)!.size).toBe(1);
    const { rows } = await db.query<{ payout_id: string; n: number }>(
      `SELECT payout_id, count(*)::int AS n FROM webhook_events WHERE account_id = $1 GROUP BY payout_id`,
      [shop.accountId],
    );
    expect(rows).toHaveLength(payoutIds.length);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    // Every payout event committed is in Kafka.
    const wanted = new Set(payoutIds.map((id) => `payout-${id}`));
    const committed = (await Promise.all([...wanted].map((streamId) => store.readStream(streamId)))).flatMap(
      (stream) => stream.events.map((event) => event.eventId),
    );
    const inKafka = await readTopic(`${prefix}payout`, (key) => wanted.has(key), committed.length);
    const ids = new Set(inKafka.map((m) => m.eventId));
    expect(committed.filter((eventId) => !ids.has(eventId))).toEqual([]);
  }, 240_000);

  /** Reads a topic from the start with a consumer group of its own until `count` matching messages arrived. */
  async function readTopic(topic: string, keep: (key: string) => boolean, count: number) {
    const kafka = new Kafka({
      clientId: 'e2e-reader',
      brokers: brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const reader = kafka.consumer({ groupId: `reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const seen: { eventId: string; type: string; key: string }[] = [];
    await reader.connect();
    try {
      await reader.subscribe({ topics: [topic], fromBeginning: true });
      await reader.run({
        eachMessage: async ({ message }) => {
          const key = String(message.key);
          if (!keep(key)) return;
          const value = JSON.parse(String(message.value)) as { eventId: string; type: string };
          seen.push({ eventId: value.eventId, type: value.type, key });
        },
      });
      await eventually(() => (new Set(seen.map((s) => s.eventId)).size >= count ? true : undefined), 60_000);
    } finally {
      await reader.disconnect();
    }
    return seen.filter((s, i) => seen.findIndex((o) => o.eventId === s.eventId) === i);
  }
});

describe('blocked webhook targets (insecure targets off): refused when saved and at delivery, no connection made', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: PostgresSqlClient;
  let started: Record<string, RunningApp>;
  let call: Call;
  let sink: Server;
  let connections = 0;
  let port: number;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Listens on every local address, IPv4 and IPv6: any connection to this machine on the port counts.
    sink = createServer((_req, res) => res.writeHead(200).end());
    sink.on('connection', (socket: Socket) => {
      connections += 1;
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => sink.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
    port = (sink.address() as AddressInfo).port;
    database = await createServerDatabase();
    db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 2 });
    started = await startApps(
      {
        DATABASE_URL: database.url,
        KAFKA_BROKERS: brokers,
        KAFKA_TOPIC_PREFIX: `blocked-${randomUUID().slice(0, 8)}.`,
        OPERATOR_TOKEN,
        ENCRYPTION_KEY,
        WEBHOOK_POLL_MS: '20',
        LOG_LEVEL: 'warn',
      },
      ['api-gateway', 'webhook-dispatcher'],
    );
    call = client(started['api-gateway']!.url);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(started ?? {}).map((app) => stop(app)));
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => sink?.close(resolve));
    await db?.close();
    await database?.drop();
  }, 60_000);

  const targets = (p: number): [string, string][] => [
    [`https://127.0.0.1:${p}/`, 'loopback'],
    [`https://127.1:${p}/`, 'loopback, short form'],
    [`https://2130706433:${p}/`, 'loopback, decimal'],
    [`https://0x7f000001:${p}/`, 'loopback, hex'],
    [`https://017700000001:${p}/`, 'loopback, octal'],
    [`https://0x7f.0.0.1:${p}/`, 'loopback, hex first part'],
    [`https://localhost:${p}/`, 'localhost'],
    [`https://localhost.:${p}/`, 'localhost with a trailing dot'],
    [`https://[::1]:${p}/`, 'IPv6 loopback'],
    [`https://[::ffff:127.0.0.1]:${p}/`, 'IPv4-mapped loopback'],
    [`https://[::ffff:7f00:1]:${p}/`, 'IPv4-mapped loopback, hex'],
    [`https://[::]:${p}/`, 'IPv6 unspecified'],
    [`https://0.0.0.0:${p}/`, 'this host'],
    [`https://0:${p}/`, 'this host, as 0'],
    [`https://10.0.0.1:${p}/`, 'private 10/8'],
    [`https://172.16.0.1:${p}/`, 'private 172.16/12'],
    [`https://192.168.1.1:${p}/`, 'private 192.168/16'],
    [`https://3232235777:${p}/`, 'private, decimal'],
    [`https://169.254.169.254:${p}/`, 'link-local (cloud metadata)'],
    [`https://0xa9fea9fe:${p}/`, 'link-local, hex'],
    [`https://[::ffff:a9fe:a9fe]:${p}/`, 'IPv4-mapped link-local'],
    [`https://100.64.0.1:${p}/`, 'CGNAT'],
    [`https://224.0.0.1:${p}/`, 'multicast'],
    [`https://239.255.255.250:${p}/`, 'multicast, SSDP'],
    [`https://240.0.0.1:${p}/`, 'reserved'],
    [`https://255.255.255.255:${p}/`, 'broadcast'],
    [`https://192.0.2.1:${p}/`, 'documentation TEST-NET-1'],
    [`https://198.51.100.1:${p}/`, 'documentation TEST-NET-2'],
    [`https://203.0.113.1:${p}/`, 'documentation TEST-NET-3'],
    [`https://198.18.0.1:${p}/`, 'benchmarking'],
    [`https://192.0.0.1:${p}/`, 'IETF protocol assignments'],
    [`https://[fe80::1]:${p}/`, 'IPv6 link-local'],
    [`https://[fc00::1]:${p}/`, 'IPv6 unique local'],
    [`https://[fd12:3456::1]:${p}/`, 'IPv6 unique local, fd'],
    [`https://[ff02::1]:${p}/`, 'IPv6 multicast'],
    [`https://[2001:db8::1]:${p}/`, 'IPv6 documentation'],
    [`https://[64:ff9b::7f00:1]:${p}/`, 'NAT64 of loopback'],
    [`https://[64:ff9b::a00:1]:${p}/`, 'NAT64 of 10.0.0.1'],
    [`https://[2002:7f00:1::]:${p}/`, '6to4 of loopback'],
    [`https://[2002:c0a8:101::1]:${p}/`, '6to4 of 192.168.1.1'],
    [`http://93.184.216.34:${p}/`, 'plain http'],
  ];

  it('refuses every one of 41 targets when saved (400) and before every attempt, with zero connections', async () => {
    const list = targets(port);
    expect(list.length).toBeGreaterThanOrEqual(30);
    const shop = await merchant(call);
    for (const [url, what] of list) {
      const answer = await call('PUT', '/dashboard/payout-webhook', {
        token: shop.adminToken,
        body: { environment: 'sandbox', url },
      });
      expect([what, answer.status, answer.body.error?.code, answer.body.error?.param]).toEqual([
        what,
        400,
        'invalid_request',
        'url',
      ]);
    }
    // At delivery time too: an endpoint whose URL passed when saved now points at each of them (as
    // after a DNS change); every attempt is refused after resolution, before any connection.
    const saved = await call('PUT', '/dashboard/payout-webhook', {
      token: shop.adminToken,
      body: { environment: 'sandbox', url: 'https://93.184.216.34/hooks' },
    });
    expect(saved.status).toBe(200);
    for (const [url, what] of list) {
      await db.query('UPDATE payout_webhook_endpoints SET url = $1 WHERE account_id = $2', [
        url,
        shop.accountId,
      ]);
      const sent = await call('POST', '/dashboard/payout-webhook/test', {
        token: shop.adminToken,
        body: { environment: 'sandbox' },
      });
      expect(sent.status).toBe(202);
      const attempt = await eventually(async () => {
        const event = await call('GET', `/dashboard/payout-webhook/events/${sent.body.event_id}`, {
          token: shop.adminToken,
        });
        return event.body.deliveries?.[0]?.attempts?.[0];
      });
      expect([what, attempt.status_code, attempt.delivered, attempt.signature_timestamp]).toEqual([
        what,
        null,
        false,
        null,
      ]);
      expect([what, attempt.error]).toEqual([
        what,
        expect.stringMatching(/^target refused \((blocked_address|insecure_scheme)\)/),
      ]);
    }
    expect(connections).toBe(0);
  }, 180_000);
});
