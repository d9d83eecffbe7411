import type { INestApplication } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AccountsRepository } from '@payouts/accounts';
import type { ReceivingDetailsVault } from '@payouts/claims';
import { RECEIVING_DETAILS_VAULT } from '@payouts/claims';
import { ConfirmPayoutCommand } from '@payouts/payouts';
import { ACCOUNTS } from '../../../apps/api-gateway/src/gateway.tokens';
import {
  Call,
  client,
  Gateway,
  linkBody,
  merchant,
  Merchant,
  newKey,
  OPERATOR_TOKEN,
  startGateway,
} from '../api/gateway-harness';
import { orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { DETAILS, waitForPayout } from '../worker/worker-harness';

const operator = { token: OPERATOR_TOKEN };

/** What the Home and Balance tests see: one account's sandbox money, moved through the real service. */
export interface FundsScene {
  call: Call;
  /** The reasons of the operator credits, oldest first (`Credit 01` …). */
  credits: string[];
  orderId: number;
  payoutId: string;
  /** The sandbox settlement of `shop`. */
  settlementId: string;
  /** Another account with a settlement of its own, which `shop` must never see. */
  other: { merchant: Merchant; settlementId: string };
}

/**
 * The embedded start through the real bootstrap (its strict JSON parser keeps a checkout amount as
 * written, which creating an order needs), with a worker quick to pay payouts, and the account the
 * pages are signed in to.
 */
export async function startFundsGateway(
  accountName = 'Corner Shop',
): Promise<{ gateway: Gateway; shop: Merchant }> {
  const gateway = await startGateway('pglite', { WORKER_POLL_MS: '25', RAIL_SIMULATOR_DELAY_MS: '0' });
  const shop = await merchant(client(gateway.url), '0.00', { name: accountName });
  return { gateway, shop };
}

/** Polls `check` until it answers something; fails after `timeoutMs`. */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not there after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Sandbox money for `shop`, through the service's own routes (and, for the recipient's
 * confirmation, the command the hosted pages send): `creditCount` operator credits of 10.00, a card
 * payment of 100.00 still pending (96.80 net), a payout of 20.00 paid by the worker through the
 * rail, a retained target of 50.00, then a settlement run, which settles what is available above
 * it. Another account is settled in the same run. The account's time zone is `timeZone`.
 */
export async function fundsScene(
  gateway: { url: string; app: INestApplication },
  shop: Merchant,
  options: { creditCount: number; timeZone: string },
): Promise<FundsScene> {
  const call = client(gateway.url);
  await gateway.app.get<AccountsRepository>(ACCOUNTS).setTimeZone(shop.accountId, options.timeZone);

  const credits: string[] = [];
  for (let n = 1; n <= options.creditCount; n += 1) {
    const reason = `Credit ${String(n).padStart(2, '0')}`;
    const answer = await call('POST', `/operator/accounts/${shop.accountId}/funds`, {
      ...operator,
      body: { environment: 'sandbox', amount: '10.00', reference: `credit-${n}`, reason },
    });
    expect(answer.status).toBe(200);
    credits.push(reason);
  }

  const checkoutKey = await call('POST', '/dashboard/credentials', {
    token: shop.adminToken,
    body: { kind: 'checkout', environment: 'sandbox' },
  });
  expect(checkoutKey.status).toBe(201);
  const order = await call('POST', '/sandbox/card', {
    token: checkoutKey.body.token as string,
    body: orderBody({ amount: 100 }),
  });
  expect(order.status).toBe(200);
  const payer = new Payer(`${gateway.url}${new URL(order.body.order_url as string).pathname}`);
  expect((await payer.open()).status).toBe(200);
  expect((await payer.payByCard('4242424242424242')).status).toBeLessThan(400);
  const orderId = order.body.order_id as number;

  const created = await call('POST', '/sandbox/api/payout/create', {
    token: shop.token,
    key: newKey(),
    body: linkBody('home-refund', '20.00'),
  });
  expect(created.status).toBe(201);
  const payoutId = created.body.payout_id as string;
  await gateway.app.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT).save(payoutId, DETAILS.paid);
  await gateway.app.get(CommandBus).execute(new ConfirmPayoutCommand(payoutId, DETAILS.paid.method));
  await waitForPayout(call, shop.token, payoutId, (payout) => payout.status === 'paid');
  // The payout_paid row is projected from the same event: wait for it, not only for the payout.
  await eventually(async () => {
    const rows = await call('GET', '/sandbox/api/balance/transactions?type=payout_paid', {
      token: shop.token,
    });
    return rows.body.total === 1 ? true : undefined;
  });

  expect(
    (
      await call('PUT', '/dashboard/retained-target', {
        token: shop.adminToken,
        body: { environment: 'sandbox', amount: '50.00' },
      })
    ).status,
  ).toBe(200);

  const other = await merchant(call, '40.00', { name: 'Other Shop' });
  const run = await call('POST', '/operator/settlements/run', {
    ...operator,
    body: { environment: 'sandbox' },
  });
  expect(run.status).toBe(200);
  const started = run.body.started as { settlement_id: string; account_id: string; status: string }[];
  const settlementOf = (accountId: string) => {
    const settlement = started.find((s) => s.account_id === accountId);
    expect(settlement).toMatchObject({ status: 'paid' });
    return settlement!.settlement_id;
  };
  return {
    call,
    credits,
    orderId,
    payoutId,
    settlementId: settlementOf(shop.accountId),
    other: { merchant: other, settlementId: settlementOf(other.accountId) },
  };
}
