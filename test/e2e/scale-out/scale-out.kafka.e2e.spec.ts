import Big from 'big.js';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PostgresSqlClient } from '@payouts/database';
import { currentSettlementRun, ledgerStreamId } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { dailySettlementId } from '@payouts/settlements';
import { assertMoneyInvariants, createServerDatabase } from '@payouts/testing';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, client, merchant, Merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { checkoutShop, orderBody, Shop } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { ledgerEventsOf } from '../funds/funds-harness';
import { recipientClient } from '../recipient/recipient-client';
import { DIST } from '../spawn-app';
import { Fleet, Member } from './fleet';
import { BurstCreate, payoutBurst } from './payout-burst';
import { tally } from './webhook-tally';

/**
 * Scale-out end to end (docs/operations.md#scaling-out): three api-gateway, two worker, two
 * projector and two webhook-dispatcher processes on one fresh PostgreSQL database and the real
 * Kafka broker. Creates on one balance from every gateway never overdraw it; checkout payments
 * mature and settle once per ledger and day with two workers; every webhook event reaches the
 * merchant once with two dispatchers; one process of each kind is SIGKILLed during the load and
 * nothing is lost; the audit passes on the log they wrote. Run by `npm run test:kafka` (both
 * DATABASE_URL and KAFKA_BROKERS set) after `npm run build`.
 */
const brokers = process.env.KAFKA_BROKERS ?? '';
const run = promisify(execFile);
const operator = { token: OPERATOR_TOKEN };
const DAY_S = 24 * 3600;
const FUNDS = '1000.00';
const FEE = '0.50';
const CREATES = 150;
const CONFIRMED = 24;
const RETURN_ORIGIN = 'https://shop.example.com';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scaled out: 3 gateways, 2 workers, 2 projectors and 2 dispatchers on one database and one broker', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: PostgresSqlClient;
  let store: PostgresEventStore;
  let receiver: TestReceiver;
  let fleet: Fleet;
  let dataDir: string;
  const figures: Record<string, unknown> = {};
  const startedAt = Date.now();

  /** A client per live gateway, in fleet order: the survivors after a kill. */
  const gateways = (): Call[] => fleet.live('api-gateway').map((member) => client(member.running.url));
  const call = (): Call => gateways()[0]!;
  const killOne = async (app: Member['app'], what: string): Promise<number> => {
    const victim = fleet.live(app)[0]!;
    const at = Date.now();
    await fleet.kill(victim);
    (figures.killed as string[]).push(`${victim.name} ${what}`);
    return at;
  };
  const advanceClock = async (seconds: number): Promise<Date> => {
    const moved = await call()('POST', '/operator/sandbox/clock', {
      ...operator,
      body: { advance_seconds: seconds },
    });
    expect(moved.status).toBe(200);
    return new Date(moved.body.sandbox_now as string);
  };

  beforeAll(async () => {
    figures.killed = [];
    database = await createServerDatabase();
    db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 2 });
    store = new PostgresEventStore(db);
    receiver = await TestReceiver.start();
    // The gateways share one development mailbox folder; nothing here e-mails, but it stays out of ./.data.
    dataDir = mkdtempSync(join(tmpdir(), 'scale-out-'));
    fleet = await Fleet.start(
      { 'api-gateway': 3, worker: 2, projector: 2, 'webhook-dispatcher': 2 },
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        KAFKA_BROKERS: brokers,
        KAFKA_TOPIC_PREFIX: `scale-out-${randomUUID().slice(0, 8)}.`,
        KAFKA_TOPIC_PARTITIONS: '3',
        OPERATOR_TOKEN,
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        WEBHOOK_POLL_MS: '50',
        PROJECTOR_POLL_MS: '20',
        WORKER_POLL_MS: '50',
        RAIL_SIMULATOR_DELAY_MS: '100',
        LOG_LEVEL: 'warn',
      },
    );
    figures.startup_s = ((Date.now() - startedAt) / 1000).toFixed(1);
  }, 150_000);

  afterAll(async () => {
    const failures = (await fleet?.stopAll()) ?? [];
    await store?.close();
    await db?.close();
    await receiver?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    figures.total_s = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(`scale-out figures:\n${JSON.stringify(figures, null, 2)}`);
    expect(failures).toEqual([]);
  }, 60_000);

  let payoutShop: Merchant;
  const shops: Shop[] = [];
  let burst: BurstCreate[] = [];
  const paidOrders: number[] = [];
  /** The checkout key of each paid order's shop, to read the order back. */
  const keyOfOrder = new Map<number, string>();
  const confirmed: BurstCreate[] = [];
  /** Receipts of the events delivered while both dispatchers ran and none was killed. */
  let receivedBeforeDispatcherKill = 0;
  let dispatcherKilledAt = 0;
  const settlementDays: string[] = [];

  /** Orders created on every live gateway and each paid on the hosted page of the next one. */
  const payOrdersOnEveryGateway = async (perShop: number) => {
    const live = fleet.live('api-gateway').map((member) => member.running.url);
    const jobs = shops.flatMap((shop, s) =>
      Array.from({ length: perShop }, async (_, i) => {
        const creator = live[(s + i) % live.length]!;
        const payerGateway = live[(s + i + 1) % live.length]!;
        const card = i % 2 === 0;
        const created = await client(creator)(
          'POST',
          card ? '/sandbox/card' : '/sandbox/payment/mobilewallet',
          {
            token: shop.key,
            body: orderBody({ amount: Number(new Big(10).plus(new Big(i).times('7.35')).toFixed(2)) }),
          },
        );
        expect(created.status).toBe(200);
        const payer = new Payer(`${payerGateway}${new URL(created.body.order_url as string).pathname}`);
        expect((await payer.open()).status).toBe(200);
        const paid = card
          ? await payer.payByCard('4242424242424242')
          : await payer.payByWallet('ana@example.com');
        expect(paid.status).toBeLessThan(400);
        paidOrders.push(created.body.order_id as number);
        keyOfOrder.set(created.body.order_id as number, shop.key);
      }),
    );
    await Promise.all(jobs);
  };

  /** The daily settlements of each checkout ledger, from its events: settlement id per day. */
  const dailySettlements = async () =>
    Promise.all(
      shops.map(async (shop) =>
        (await ledgerEventsOf(store, shop.accountId))
          .filter((event) => event.type === 'SettlementStarted')
          .map((event) => (event.data as { settlementId: string }).settlementId),
      ),
    );
  const settlementsPaid = async () =>
    (
      await Promise.all(
        shops.map(async (shop) =>
          (await ledgerEventsOf(store, shop.accountId)).filter((event) => event.type === 'SettlementPaid'),
        ),
      )
    ).flat().length;

  it('pays checkout orders created on every gateway, each on another gateway’s hosted page', async () => {
    receiver.answer = () => ({ status: 200, body: 'ok' });
    for (let s = 0; s < 3; s++) {
      shops.push(await checkoutShop(call(), { name: `Shop ${s}`, webhookUrl: receiver.url('/orders') }));
    }
    await payOrdersOnEveryGateway(4);
    expect(paidOrders).toHaveLength(12);
    figures.orders_paid_day_1 = paidOrders.length;
  }, 60_000);

  it('never overdraws one balance with concurrent creates on all three gateways, a gateway killed mid-burst', async () => {
    payoutShop = await merchant(call(), FUNDS, { origins: [RETURN_ORIGIN] });
    const saved = await call()('PUT', '/dashboard/payout-webhook', {
      token: payoutShop.adminToken,
      body: { environment: 'sandbox', url: receiver.url('/payouts') },
    });
    expect(saved.status).toBe(200);

    const started = Date.now();
    burst = await payoutBurst({
      count: CREATES,
      token: payoutShop.token,
      gateways,
      returnUrl: `${RETURN_ORIGIN}/back`,
      during: async () => {
        await killOne('api-gateway', 'mid-burst');
      },
      deadlineMs: 90_000,
    });
    const accepted = burst.filter((c) => c.outcome === 'accepted');
    const refused = burst.filter((c) => c.outcome === 'refused');
    const totalAsked = burst.reduce((sum, c) => sum.plus(c.amount).plus(FEE), new Big(0));
    const reserved = accepted.reduce((sum, c) => sum.plus(c.totalReserved!), new Big(0));
    Object.assign(figures, {
      creates_sent: CREATES,
      creates_asked_total: totalAsked.toFixed(2),
      creates_accepted: accepted.length,
      creates_refused: refused.length,
      creates_reserved_total: reserved.toFixed(2),
      creates_retried_after_gateway_kill: burst.filter((c) => c.trail.some((t) => t.endsWith(':lost')))
        .length,
      creates_accepted_by_a_replay: accepted.filter((c) => c.replayed).length,
      creates_answered_in_progress_at_least_once: burst.filter((c) =>
        c.trail.some((t) => t.includes('idempotency_key_in_progress')),
      ).length,
      burst_s: ((Date.now() - started) / 1000).toFixed(1),
    });

    // The kill cut creates short: their connections were lost and they went again elsewhere.
    expect(figures.creates_retried_after_gateway_kill).toBeGreaterThan(0);
    // The burst asked for more than the balance; every create has its final answer.
    expect(totalAsked.gt(FUNDS)).toBe(true);
    expect(burst.filter((c) => c.outcome === 'unresolved').map((c) => c.trail)).toEqual([]);
    // Refused only with the documented refusal (docs/design.md#error-codes-and-statuses).
    expect(new Set(refused.map((c) => c.refusal))).toEqual(new Set(['409 insufficient_funds']));
    // Accepted ones reserved amount plus fee each, and no more than the balance in all.
    for (const c of accepted) expect(c.totalReserved).toBe(new Big(c.amount).plus(FEE).toFixed(2));
    expect(reserved.lte(FUNDS)).toBe(true);
    // One payout per accepted key, wherever its answer came from.
    expect(new Set(accepted.map((c) => c.payoutId)).size).toBe(accepted.length);
    const { rows } = await db.query<{ n: number; total: string }>(
      `SELECT count(*)::int AS n, coalesce(sum(total_reserved), 0)::text AS total
         FROM payout_list WHERE account_id = $1 AND environment = 'sandbox'`,
      [payoutShop.accountId],
    );
    expect(rows[0]).toEqual({ n: accepted.length, total: reserved.toFixed(2) });

    // The balance is exact to the cent, and too small for any refused create (available only fell).
    const balance = await call()('GET', '/sandbox/api/payout/balance', { token: payoutShop.token });
    expect(balance.status).toBe(200);
    const available = new Big(FUNDS).minus(reserved);
    expect({
      available: balance.body.available_for_new_commitments,
      holds: balance.body.customer_payout_holds,
    }).toEqual({ available: available.toFixed(2), holds: reserved.toFixed(2) });
    for (const c of refused) expect(new Big(c.amount).plus(FEE).gt(available)).toBe(true);
    figures.balance_after_burst = { available: available.toFixed(2), holds: reserved.toFixed(2) };
  }, 120_000);

  it('has confirmed payouts paid by two workers and their webhooks sent once by two dispatchers, a projector and a dispatcher killed on the way', async () => {
    // The projector (read models, chain, Kafka relay) still working through the burst's events.
    await killOne('projector', 'after the burst');
    // Every day-1 order webhook has arrived while both dispatchers ran.
    await eventually(
      () => (tally(receiver.received).size >= paidOrders.length ? true : undefined),
      60_000,
      'the day-1 order webhooks',
    );
    receivedBeforeDispatcherKill = receiver.received.length;

    // Slow answers, so attempts are on the wire when a dispatcher dies.
    receiver.answer = () => ({ status: 200, body: 'ok', delayMs: 300 });
    const accepted = burst.filter((c) => c.outcome === 'accepted');
    // Only a first answer shows the handoff URL (a replay answers payout_url null).
    confirmed.push(...accepted.filter((c) => c.payoutUrl !== undefined).slice(0, CONFIRMED));
    expect(confirmed).toHaveLength(CONFIRMED);
    const urls = fleet.live('api-gateway').map((member) => member.running.url);
    let n = 0;
    await Promise.all(
      confirmed.map(async (create) => {
        // Each request of the recipient's flow to the next surviving gateway: the page session is shared.
        const pages = recipientClient(() => urls[(n += 1) % urls.length]!);
        const { cookie, csrf } = await pages.open(create.payoutUrl!);
        const details = await pages.post('/sandbox/recipient/details', cookie, {
          csrf_token: csrf,
          method: 'wallet',
          wallet_handle: `paid-${create.index}@example.com`,
        });
        expect(details.status).toBe(303);
        const confirm = await pages.post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf });
        expect(confirm.status).toBe(303);
      }),
    );
    await eventually(
      () => (receiver.received.some((r) => r.path === '/payouts') ? true : undefined),
      60_000,
      'a first payout webhook',
    );
    dispatcherKilledAt = await killOne('webhook-dispatcher', 'with payout webhooks on the wire');

    const statuses = await eventually(
      async () => {
        const { rows } = await db.query<{ payout_id: string; status: string }>(
          'SELECT payout_id, status FROM payout_list WHERE payout_id = ANY($1)',
          [confirmed.map((c) => c.payoutId!)],
        );
        return rows.every((row) => row.status === 'paid') && rows.length === CONFIRMED ? rows : undefined;
      },
      60_000,
      'every confirmed payout paid',
    );
    figures.payouts_paid = statuses.length;
  }, 120_000);

  it('matures and settles every checkout ledger once on day 1, a worker killed as the clock moves, and expires the unclaimed payouts', async () => {
    const sandboxNow = await advanceClock(2 * DAY_S + 60);
    await pause(300);
    await killOne('worker', 'while expiring, maturing and settling');
    const day = currentSettlementRun(sandboxNow, 0).day;
    settlementDays.push(day);

    const accepted = burst.filter((c) => c.outcome === 'accepted');
    const ends = await eventually(
      async () => {
        const { rows } = await db.query<{ status: string; n: number }>(
          `SELECT status, count(*)::int AS n FROM payout_list WHERE account_id = $1 GROUP BY status ORDER BY status`,
          [payoutShop.accountId],
        );
        return rows.length === 2 && rows.every((row) => ['expired', 'paid'].includes(row.status))
          ? rows
          : undefined;
      },
      60_000,
      'every accepted payout paid or expired',
    );
    expect(ends).toEqual([
      { status: 'expired', n: accepted.length - CONFIRMED },
      { status: 'paid', n: CONFIRMED },
    ]);
    await eventually(
      async () => ((await settlementsPaid()) === shops.length ? true : undefined),
      60_000,
      'day 1 settled',
    );
    // The replacement an orchestrator would start: two workers again for day 2.
    await fleet.replace('worker');
  }, 120_000);

  it('settles each ledger exactly once on day 2 with two workers running', async () => {
    await payOrdersOnEveryGateway(2);
    expect(paidOrders).toHaveLength(18);
    const sandboxNow = await advanceClock(2 * DAY_S + 60);
    settlementDays.push(currentSettlementRun(sandboxNow, 0).day);
    await eventually(
      async () => ((await settlementsPaid()) === 2 * shops.length ? true : undefined),
      60_000,
      'day 2 settled',
    );
    // Give a racing worker every chance to settle a ledger twice before counting.
    await pause(1_500);
    const perLedger = await dailySettlements();
    expect(perLedger).toEqual(
      shops.map((shop) =>
        settlementDays.map((day) => dailySettlementId(ledgerStreamId(shop.accountId, 'sandbox'), day)),
      ),
    );
    // The payout balance is funded by an operator credit only: the nightly run leaves it alone.
    const payoutLedger = await ledgerEventsOf(store, payoutShop.accountId);
    expect(payoutLedger.filter((event) => event.type === 'SettlementStarted')).toEqual([]);
    figures.settlements = { ledgers: shops.length, days: settlementDays, started: perLedger.flat().length };
  }, 120_000);

  it('delivers every webhook event, each attempt once, and repeats only what a killed dispatcher had on the wire', async () => {
    const expectedEvents = CONFIRMED + paidOrders.length;
    // Every delivery recorded as delivered; those a killed dispatcher held wait out their 30-s lease.
    const recorded = await eventually(
      async () => {
        const { rows } = await db.query<{
          status: string;
          attempts_made: number;
          attempts: number;
          n: number;
        }>(
          `SELECT d.status, d.attempts_made,
                  (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = d.delivery_id)::int AS attempts,
                  count(*)::int AS n
             FROM webhook_deliveries d GROUP BY 1, 2, 3`,
        );
        return rows.length === 1 && rows[0]!.status === 'delivered' && rows[0]!.n === expectedEvents
          ? rows
          : undefined;
      },
      90_000,
      'every webhook delivery recorded as delivered',
    );
    // The database records one attempt per event, and it delivered.
    expect(recorded).toEqual([{ status: 'delivered', attempts_made: 1, attempts: 1, n: expectedEvents }]);
    await pause(1_000);
    const receipts = tally(receiver.received);
    expect(receipts.size).toBe(expectedEvents);
    expect([...receipts.keys()].filter((k) => k.startsWith('order:')).sort()).toEqual(
      paidOrders.map((id) => `order:${id}`).sort(),
    );
    const payoutIds = receiver.received
      .filter((r) => r.path === '/payouts')
      .map((r) => (JSON.parse(r.rawBody) as { data: { payout_id: string } }).data.payout_id);
    expect(new Set(payoutIds)).toEqual(new Set(confirmed.map((c) => c.payoutId)));

    // Sent before the kill, with two dispatchers: exactly once each.
    const early = tally(receiver.received.slice(0, receivedBeforeDispatcherKill));
    for (const [key] of early) expect([key, receipts.get(key)!.count]).toEqual([key, 1]);
    // First sent after the kill: exactly once each. First sent before it: at most once more,
    // the attempt the killed dispatcher had on the wire, made again when its lease ran out.
    const repeated = [...receipts].filter(([, r]) => r.count > 1);
    for (const [key, r] of repeated) {
      expect([key, r.firstAt < dispatcherKilledAt, r.count]).toEqual([key, true, 2]);
    }
    Object.assign(figures, {
      webhook_events: expectedEvents,
      webhook_receipts: receiver.received.length,
      webhook_events_sent_again_after_dispatcher_kill: repeated.length,
      // Deliveries the killed dispatcher had claimed: made by the survivor once the 30-s lease ran out.
      webhook_receipts_after_the_killed_lease: receiver.received.filter(
        (r) => r.at >= dispatcherKilledAt + 29_000,
      ).length,
    });
  }, 120_000);

  it('keeps the read models equal to the log and passes the audit', async () => {
    // The surviving projector has caught up: read models, chain and relay.
    await eventually(
      async () => {
        const events = await countEvents(store);
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_chain');
        return rows[0]!.n === events ? events : undefined;
      },
      60_000,
      'the chain keeper caught up',
    );
    for (const shop of [...shops, payoutShop]) await assertMoneyInvariants(db, shop.accountId, 'sandbox');
    // Every paid order is SUCCESS, read on the surviving gateways.
    const orderStatuses = await Promise.all(
      paidOrders.map(async (orderId, i) => {
        const read = await gateways()[i % gateways().length]!(
          'GET',
          `/sandbox/payment/status?payment_id=${orderId}`,
          {
            token: keyOfOrder.get(orderId),
          },
        );
        return `${read.status} ${read.body.status}`;
      }),
    );
    expect(new Set(orderStatuses)).toEqual(new Set(['200 SUCCESS']));
    // The payout balance to the cent: what the paid payouts took, nothing held.
    const paid = confirmed.reduce((sum, c) => sum.plus(c.totalReserved!), new Big(0));
    const balance = await call()('GET', '/sandbox/api/payout/balance', { token: payoutShop.token });
    expect({
      available: balance.body.available_for_new_commitments,
      holds: balance.body.customer_payout_holds,
      settled: balance.body.customer_payouts_settled,
    }).toEqual({ available: new Big(FUNDS).minus(paid).toFixed(2), holds: '0.00', settled: paid.toFixed(2) });

    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: database.url };
    const verify = await run(process.execPath, [join(DIST, 'tools/audit/main.js'), 'verify'], { env });
    expect(verify.stdout).not.toMatch(/^(finding|info)/m);
    expect(verify.stdout).toMatch(/^summary: \d+ events in \d+ streams checked .*; 0 finding\(s\);/m);
    const replay = await run(process.execPath, [join(DIST, 'tools/audit/main.js'), 'replay'], { env });
    expect(replay.stdout).toMatch(/; 0 difference\(s\);/);
    figures.audit = {
      verify: /^summary: .*$/m.exec(verify.stdout)?.[0],
      replay: /^summary: .*$/m.exec(replay.stdout)?.[0],
    };
  }, 120_000);
});
