import Big from 'big.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import type { Call } from '../api/gateway-harness';
import { checkoutShop, orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { recipientClient } from '../recipient/recipient-client';
import { startWorkerGateway, WorkerGateway } from '../worker/worker-harness';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * A whole day of a merchant (docs/balance.md, "A worked example"), end to end on the embedded
 * start with its worker: checkout payments in USD and GBP paid through the hosted page, the sandbox
 * clock past clearing, a refund payout claimed by its recipient and paid, the clock past the
 * settlement hour, the settlements paid. At every step the balance, the balance transactions and
 * the settlements agree to the cent.
 */
describe("a merchant's day, from checkout payments to the settlement", () => {
  let dataDir: string;
  let gateway: WorkerGateway;
  let call: Call;
  const operator = { token: OPERATOR_TOKEN };
  let shop: Awaited<ReturnType<typeof checkoutShop>>;
  let payoutToken: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'merchant-day-'));
    gateway = await startWorkerGateway({ dataDir }, { DEV_MAILBOX: 'true', SETTLEMENT_HOUR_UTC: '0' });
    call = gateway.call;
    shop = await checkoutShop(call, { region: 'GB', name: 'Corner Shop' });
    expect(
      (
        await call('POST', `/operator/accounts/${shop.accountId}/payouts-approval`, {
          ...operator,
          body: { approved: true },
        })
      ).status,
    ).toBe(200);
    const admin = { token: shop.adminToken };
    expect(
      (
        await call('PUT', '/dashboard/payouts-enabled', {
          ...admin,
          body: { environment: 'sandbox', enabled: true },
        })
      ).status,
    ).toBe(200);
    const credential = await call('POST', '/dashboard/credentials', {
      ...admin,
      body: { kind: 'payout', environment: 'sandbox' },
    });
    expect(credential.status).toBe(201);
    payoutToken = credential.body.token as string;
  }, 60_000);

  afterAll(async () => {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Moves the sandbox clock forward by `seconds`; answers its new now. */
  async function advance(seconds: number): Promise<Date> {
    const answer = await call('POST', '/operator/sandbox/clock', {
      ...operator,
      body: { advance_seconds: seconds },
    });
    expect(answer.status).toBe(200);
    return new Date(answer.body.sandbox_now as string);
  }
  /** The sandbox's now, read by moving its clock one second (it only moves forward). */
  const sandboxNow = (): Promise<Date> => advance(1);
  /** Moves the sandbox clock to `target`. */
  async function advanceTo(target: Date): Promise<void> {
    const now = await sandboxNow();
    const seconds = Math.ceil((target.getTime() - now.getTime()) / 1000);
    expect(seconds).toBeGreaterThan(0);
    await advance(seconds);
  }
  /** The next `hour`:`minute` UTC strictly after `from`. */
  const nextUtc = (from: Date, hour: number, minute = 0): Date => {
    const at = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), hour, minute));
    return at.getTime() > from.getTime() ? at : new Date(at.getTime() + DAY * 1000);
  };

  const balance = async () => {
    const answer = await call('GET', '/sandbox/api/payout/balance', { token: payoutToken });
    expect(answer.status).toBe(200);
    return answer.body as Row;
  };
  const transactions = async (currency: string) => {
    const answer = await call('GET', `/sandbox/api/balance/transactions?currency=${currency}&limit=200`, {
      token: payoutToken,
    });
    expect(answer.status).toBe(200);
    return answer.body.data as Row[];
  };
  const settlements = async () => {
    const answer = await call('GET', '/sandbox/api/settlements?limit=200', { token: payoutToken });
    expect(answer.status).toBe(200);
    return answer.body.data as Row[];
  };

  /** Polls until `check` passes (the worker acts on its own schedule); fails with the last error. */
  async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** The USD figures, and the sum of the transactions' nets against pending + available. */
  async function expectUsd(figures: Row): Promise<void> {
    const shown = await balance();
    expect(shown).toMatchObject(figures);
    const rows = await transactions('USD');
    const nets = rows.reduce((sum, row) => sum.plus(row.net as string), new Big(0));
    expect(nets.toFixed(2)).toBe(
      new Big(shown.pending as string).plus(shown.available_for_new_commitments as string).toFixed(2),
    );
    const pendingNets = rows
      .filter((row) => row.status === 'pending')
      .reduce((sum, row) => sum.plus(row.net as string), new Big(0));
    expect(pendingNets.toFixed(2)).toBe(shown.pending);
  }

  async function pay(path: string, currency: string, amount: number, fields: Record<string, string>) {
    const created = await call('POST', path, { token: shop.key, body: orderBody({ amount, currency }) });
    expect(created.status).toBe(200);
    const payer = new Payer(`${gateway.url}${new URL(created.body.order_url as string).pathname}`);
    await payer.open();
    const paid = await payer.submit(fields);
    expect(paid.status).toBeLessThan(400);
    return created.body.order_id as number;
  }

  let cardOrder: number;
  let payoutId: string;

  it('1. records each payment as pending, its fee beside it, on the ledger of its currency', async () => {
    // Start at 10:00 UTC on the sandbox clock, so the day below never straddles a midnight by chance.
    await advanceTo(nextUtc(await sandboxNow(), 10));
    cardOrder = await pay('/sandbox/card', 'USD', 100, {
      card_number: '4242424242424242',
      expiry: '12/34',
      security_code: '123',
      name_on_card: 'Ana Payer',
    });
    await pay('/sandbox/payment/onlinewallet', 'GBP', 20, { wallet_account: 'ana@example.com' });

    await expectUsd({
      currency: 'USD',
      pending: '96.80',
      matured: '0.00',
      available_for_new_commitments: '0.00',
      merchant_settlement_holds: '0.00',
      customer_payout_holds: '0.00',
      customer_payouts_settled: '0.00',
      retained_target: '0.00',
      estimated_next_settlement: '0.00',
    });
    const usd = await transactions('USD');
    expect(usd.map((row) => [row.type, row.amount, row.fee, row.net, row.status, row.order_id])).toEqual(
      expect.arrayContaining([
        ['payment', '100.00', '0.00', '100.00', 'pending', cardOrder],
        ['payment_fee', '-3.20', '0.00', '-3.20', 'pending', cardOrder],
      ]),
    );
    const gbp = await transactions('GBP');
    expect(gbp.map((row) => [row.type, row.net, row.status])).toEqual(
      expect.arrayContaining([
        ['payment', '20.00', 'pending'],
        ['payment_fee', '-0.30', 'pending'],
      ]),
    );
  });

  it('2. settles the GBP that cleared at the first settlement hour after it, and leaves the pending USD alone', async () => {
    // Day 3, 00:05: the wallet payment cleared on day 2; the card payment clears on day 3 at 10:00.
    const day3 = nextUtc(new Date((await sandboxNow()).getTime() + DAY * 1000), 0, 5);
    await advanceTo(day3);
    await eventually(async () => {
      const gbp = (await settlements()).filter((s) => s.currency === 'GBP');
      expect(gbp.map((s) => [s.amount, s.status])).toEqual([['19.70', 'paid']]);
    });
    await expectUsd({
      pending: '96.80',
      available_for_new_commitments: '0.00',
      merchant_settlement_holds: '0.00',
    });
  });

  it('3. clears the card payment on its day: its net joins matured and available', async () => {
    await advanceTo(nextUtc(await sandboxNow(), 10, 5));
    await eventually(() =>
      expectUsd({
        pending: '0.00',
        matured: '96.80',
        available_for_new_commitments: '96.80',
        estimated_next_settlement: '96.80',
      }),
    );
    const usd = await transactions('USD');
    expect(usd.filter((row) => row.order_id === cardOrder).map((row) => row.status)).toEqual([
      'available',
      'available',
    ]);
  });

  it('4. reserves a refund payout of 30.00 plus its 0.50 fee', async () => {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: payoutToken,
      key: newKey(),
      body: {
        amount: '30.00',
        merchant_reference: 'refund-1',
        delivery: 'link',
        customer_email: 'ana@example.com',
        original_payment_id: String(cardOrder),
      },
    });
    expect(created.status).toBe(201);
    payoutId = created.body.payout_id as string;
    await expectUsd({
      matured: '96.80',
      available_for_new_commitments: '66.30',
      customer_payout_holds: '30.50',
    });
    const reserved = (await transactions('USD')).find((row) => row.type === 'payout_reserved');
    expect(reserved).toMatchObject({ amount: '-30.00', fee: '0.50', net: '-30.50', payout_id: payoutId });

    // The recipient claims it: the link, the e-mailed code, a wallet, confirm.
    const { open, post, codeFor } = recipientClient(() => gateway.url);
    const { cookie, csrf } = await open(created.body.payout_url as string);
    expect((await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf })).status).toBe(303);
    const verified = await post('/sandbox/recipient/verify', cookie, {
      csrf_token: csrf,
      code: await codeFor('ana@example.com'),
    });
    expect(verified.status).toBe(303);
    expect(
      (
        await post('/sandbox/recipient/details', cookie, {
          csrf_token: csrf,
          method: 'wallet',
          wallet_handle: 'ana@example.com',
        })
      ).status,
    ).toBe(303);
    expect((await post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf })).status).toBe(303);
  });

  it('5. pays the refund: the holds become payouts settled, and matured falls by them', async () => {
    await eventually(async () => {
      const payout = await call('GET', `/sandbox/api/payout/${payoutId}`, { token: payoutToken });
      expect(payout.body.status).toBe('paid');
    }, 30_000);
    await expectUsd({
      matured: '66.30',
      available_for_new_commitments: '66.30',
      customer_payout_holds: '0.00',
      customer_payouts_settled: '30.50',
    });
    const paid = (await transactions('USD')).find((row) => row.type === 'payout_paid');
    expect(paid).toMatchObject({ amount: '-30.50', net: '0.00', status: 'paid', payout_id: payoutId });
  });

  it('6. keeps the retained target back from the next settlement', async () => {
    const kept = await call('PUT', '/dashboard/retained-target', {
      token: shop.adminToken,
      body: { environment: 'sandbox', amount: '10.00' },
    });
    expect(kept.status).toBe(200);
    await expectUsd({ retained_target: '10.00', estimated_next_settlement: '56.30' });
  });

  it('7. settles available minus the retained target at the settlement hour, and the rail pays it', async () => {
    await advanceTo(nextUtc(await sandboxNow(), 0, 5));
    const settlement = await eventually(async () => {
      const usd = (await settlements()).filter((s) => s.currency === 'USD');
      expect(usd.map((s) => [s.amount, s.status])).toEqual([['56.30', 'paid']]);
      return usd[0]!;
    });
    await expectUsd({
      pending: '0.00',
      matured: '10.00',
      available_for_new_commitments: '10.00',
      merchant_settlement_holds: '0.00',
      customer_payout_holds: '0.00',
      customer_payouts_settled: '30.50',
      retained_target: '10.00',
      estimated_next_settlement: '0.00',
    });
    const detail = await call('GET', `/sandbox/api/settlements/${settlement.id as string}`, {
      token: payoutToken,
    });
    expect(detail.status).toBe(200);
    const covered = (detail.body.transactions as Row[]).map((row) => row.type).sort();
    expect(covered).toEqual(['payment', 'payment_fee', 'payout_paid', 'payout_reserved', 'settlement']);
    // The books of the USD ledger, to the cent: the nets of its movements are what is left.
    const nets = (await transactions('USD')).map((row) => row.net as string);
    expect(nets.reduce((sum, net) => sum.plus(net), new Big(0)).toFixed(2)).toBe('10.00');
  });
});
