import Big from 'big.js';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { PostgresSqlClient } from '@payouts/database';
import { evolveLedger, initialLedgerState, ledgerBalanceView, upcastLedgerEvent } from '@payouts/domain';
import { EVENT_STORE_LIMITS, PostgresEventStore } from '@payouts/event-store';
import { createServerDatabase } from '@payouts/testing';
import { client, OPERATOR_TOKEN } from '../api/gateway-harness';
import { DIST, RunningApp, startApp, stop, TEST_ENCRYPTION_KEY, waitFor200 } from '../spawn-app';

const run = promisify(execFile);
const PROCESSES = 3;
const STEPS = 120;

type Figures = Record<string, string>;

/**
 * The funds flow under concurrency on the PostgreSQL server: three processes pay orders in USD and
 * EUR, create and cancel payouts, mature proceeds, run settlements and complete them, all on one
 * account at once, while the worker runs its own maturing and settlement passes beside them.
 * Afterwards every ledger's balance read model satisfies both conservation equations of
 * docs/design.md#conservation, agrees with the ledger folded from its events, and with the sum over
 * its balance transactions.
 */
describe('the funds flow when several processes move one account’s money at once', () => {
  let database: { url: string; drop: () => Promise<void> };
  const apps: RunningApp[] = [];
  let db: Client;
  /** The event store's side of the database, for its events. */
  let eventsDb: PostgresSqlClient;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await createServerDatabase();
    db = new Client({ connectionString: database.url });
    eventsDb = new PostgresSqlClient({ connectionString: database.url, maxConnections: 2 });
    store = new PostgresEventStore(eventsDb);
  });
  afterAll(async () => {
    await Promise.all(apps.map(stop));
    await db.end().catch(() => undefined);
    await eventsDb.close().catch(() => undefined);
    await database.drop();
  });

  it('keeps both conservation equations and available ≥ 0 on every ledger, in the read model and the transactions', async () => {
    const env = { DATABASE_URL: database.url, OPERATOR_TOKEN, WORKER_POLL_MS: '20' };
    const gateway = await startApp('api-gateway', env);
    apps.push(gateway);
    await waitFor200(gateway, '/health/ready');
    const call = client(gateway.url);
    const operator = { token: OPERATOR_TOKEN };

    const account = await call('POST', '/operator/accounts', {
      ...operator,
      body: { name: 'Busy', region: 'EU' },
    });
    expect(account.status).toBe(201);
    const accountId = account.body.account_id as string;
    const admin = { token: account.body.admin_token as string };
    expect(
      (
        await call('POST', `/operator/accounts/${accountId}/payouts-approval`, {
          ...operator,
          body: { approved: true },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PUT', '/dashboard/payouts-enabled', {
          ...admin,
          body: { environment: 'sandbox', enabled: true },
        })
      ).status,
    ).toBe(200);
    // Clearing at once, so maturing has work throughout the run.
    const clearing = { card: 0, mobile_wallet: 0, cash_app: 0, online_wallet: 0, p2p_app: 0 };
    expect(
      (
        await call('PUT', `/operator/accounts/${accountId}/pricing`, {
          ...operator,
          body: { environment: 'sandbox', clearing_days: clearing },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('POST', `/operator/accounts/${accountId}/funds`, {
          ...operator,
          body: { environment: 'sandbox', amount: '150.00', reason: 'opening float' },
        })
      ).status,
    ).toBe(200);
    const credential = await call('POST', '/dashboard/credentials', {
      ...admin,
      body: { kind: 'checkout', environment: 'sandbox' },
    });
    expect(credential.status).toBe(201);

    const worker = await startApp('worker', env);
    apps.push(worker);
    await waitFor200(worker, '/health');

    const processes = Array.from({ length: PROCESSES }, (_, i) =>
      run(
        process.execPath,
        [
          join(DIST, 'tools/load/funds-churn.js'),
          accountId,
          credential.body.credential_id as string,
          String(i + 1),
          String(STEPS),
        ],
        {
          env: { ...process.env, DATABASE_URL: database.url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
        },
      ),
    );
    const results = (await Promise.all(processes)).map(
      (r) => JSON.parse(r.stdout) as { done: Record<string, number>; refused: Record<string, number> },
    );
    // Every kind of command ran, and nothing was refused but for reasons the rules give.
    const done = results.reduce<Record<string, number>>((sum, r) => {
      for (const [kind, n] of Object.entries(r.done)) sum[kind] = (sum[kind] ?? 0) + n;
      return sum;
    }, {});
    expect(Object.keys(done).sort()).toEqual(
      [
        'cancel_payout',
        'complete_settlements',
        'create_payout',
        'mature',
        'pay_order',
        'settlement_run',
      ].sort(),
    );
    const unexpected = results.flatMap((r) =>
      Object.keys(r.refused).filter((code) => !['insufficient_funds', 'not_cancellable'].includes(code)),
    );
    expect(unexpected).toEqual([]);
    await stop(worker);

    await db.connect();
    const ledgers = (await store.streamIds('ledger', { limit: EVENT_STORE_LIMITS.maxStreamIdsPage })).filter(
      (streamId) => streamId.startsWith(`ledger-${accountId}-sandbox`),
    );
    expect(ledgers).toEqual([`ledger-${accountId}-sandbox`, `ledger-${accountId}-sandbox-EUR`]);
    for (const streamId of ledgers) {
      const currency = streamId.endsWith('-EUR') ? 'EUR' : 'USD';
      // The ledger from its events alone: evolveLedger refuses any event that breaks conservation.
      const { events } = await store.readStream(streamId);
      const folded = events.reduce(
        (state, event) =>
          evolveLedger(
            state,
            upcastLedgerEvent({ type: event.type, schemaVersion: event.schemaVersion, data: event.data }),
          ),
        initialLedgerState(),
      );
      const types = new Set(events.map((event) => event.type));
      expect(
        [...types]
          .filter((t) =>
            [
              'PaymentProceedsRecorded',
              'PaymentProceedsMatured',
              'SettlementStarted',
              'SettlementPaid',
            ].includes(t),
          )
          .sort(),
      ).toEqual(['PaymentProceedsMatured', 'PaymentProceedsRecorded', 'SettlementPaid', 'SettlementStarted']);

      const row = (
        await db.query<Figures>(
          `SELECT pending::text, available::text, customer_payout_holds::text, customer_payouts_settled::text,
                  merchant_settlement_holds::text, gross_proceeds::text, processing_fees::text, matured_proceeds::text,
                  operator_credits::text, settlements_paid::text, funds_in::text
             FROM payout_balances WHERE account_id = $1 AND environment = 'sandbox' AND currency = $2`,
          [accountId, currency],
        )
      ).rows[0]!;
      const sum = (...names: string[]) =>
        names.reduce((total, name) => total.plus(row[name]!), new Big(0)).toFixed(2);
      expect(row.gross_proceeds).toBe(sum('processing_fees', 'pending', 'matured_proceeds'));
      expect(sum('matured_proceeds', 'operator_credits')).toBe(
        sum(
          'available',
          'customer_payout_holds',
          'customer_payouts_settled',
          'merchant_settlement_holds',
          'settlements_paid',
        ),
      );
      expect(new Big(row.available!).gte(0)).toBe(true);

      // The read model agrees with the fold, figure by figure.
      const view = ledgerBalanceView(folded);
      expect({
        pending: row.pending,
        available: row.available,
        customerPayoutHolds: row.customer_payout_holds,
        customerPayoutsSettled: row.customer_payouts_settled,
        merchantSettlementHolds: row.merchant_settlement_holds,
      }).toEqual({
        pending: view.pending,
        available: view.available,
        customerPayoutHolds: view.customerPayoutHolds,
        customerPayoutsSettled: view.customerPayoutsSettled,
        merchantSettlementHolds: view.merchantSettlementHolds,
      });

      // And the merchant's transactions add up to it: every movement is there exactly once.
      const nets = await db.query<{ total: string; pending: string }>(
        `SELECT coalesce(sum(net), 0)::numeric(20,2)::text AS total,
                coalesce(sum(net) FILTER (WHERE status = 'pending'), 0)::numeric(20,2)::text AS pending
           FROM balance_transactions WHERE account_id = $1 AND environment = 'sandbox' AND currency = $2`,
        [accountId, currency],
      );
      expect(nets.rows[0]).toEqual({ total: sum('pending', 'available'), pending: row.pending });
    }
  }, 300_000);
});
