import {
  evolveLedger,
  initialLedgerState,
  LedgerEvent,
  LedgerState,
  ledgerStreamId,
  upcastLedgerEvent,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { Call } from '../api/gateway-harness';
import { checkoutShop, orderBody, Shop } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';

/** The ledger's events as the domain reads them (the read side is another branch's). */
export async function ledgerEventsOf(
  store: EventStore,
  accountId: string,
  currency = 'USD',
): Promise<LedgerEvent[]> {
  const { events } = await store.readStream(ledgerStreamId(accountId, 'sandbox', currency));
  return events.map((e) => upcastLedgerEvent({ type: e.type, schemaVersion: e.schemaVersion, data: e.data }));
}

/** The ledger folded by the domain's own evolve. */
export async function ledgerOf(store: EventStore, accountId: string): Promise<LedgerState> {
  return (await ledgerEventsOf(store, accountId)).reduce(evolveLedger, initialLedgerState());
}

/** A sandbox checkout shop, and a way to have an order of it paid on the hosted page. */
export async function payingShop(call: Call, baseUrl: string) {
  const shop: Shop = await checkoutShop(call);
  const pay = async (path: '/sandbox/card' | '/sandbox/payment/mobilewallet', amount: number) => {
    const created = await call('POST', path, { token: shop.key, body: orderBody({ amount }) });
    expect(created.status).toBe(200);
    const payer = new Payer(`${baseUrl}${new URL(created.body.order_url as string).pathname}`);
    expect((await payer.open()).status).toBe(200);
    const answer =
      path === '/sandbox/card'
        ? await payer.payByCard('4242424242424242')
        : await payer.payByWallet('ana@example.com');
    expect(answer.status).toBeLessThan(400);
    return created.body.order_id as number;
  };
  return { shop, pay };
}

/** Polls `check` until it holds; fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not there after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
