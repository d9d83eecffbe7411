import type { IncomingMessage, ServerResponse } from 'node:http';
import { PayoutsApiError, PayoutsClient } from '@payouts/client';
import { handleCheckoutWebhook } from './checkout-webhook';
import type { ShopConfig } from './config';
import { fromCents, toCents } from './money';
import { homePage, messagePage, orderPage, refundCreatedPage, thanksPage } from './pages';
import { handlePayoutWebhook } from './payout-webhook';
import type { OrderRecord, RefundRecord, Store } from './store';

export interface ShopContext {
  config: ShopConfig;
  store: Store;
  /** Holds the checkout API key: orders. */
  checkout: PayoutsClient;
  /** Holds the payout credential: refunds and the events feed. */
  payouts: PayoutsClient;
  /** Where browsers reach the shop; known once it listens. */
  publicUrl: string;
}

/** A refund whose payout ended in one of these gave the money back to the shop, not the customer. */
const MONEY_RETURNED = new Set(['failed', 'expired', 'cancelled']);
const MAX_BODY_BYTES = 64 * 1024;

/** The shop's pages and webhook endpoints, with nothing but node:http. */
export function createRouter(shop: ShopContext): (req: IncomingMessage, res: ServerResponse) => void {
  // One refund at a time: each checks what is left to refund, and two at once could both pass.
  let refunding: Promise<unknown> = Promise.resolve();

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname, searchParams } = new URL(req.url ?? '/', 'http://shop');
    const orderPath = /^\/orders\/(\d{1,15})(\/refunds)?$/.exec(pathname);
    const order = orderPath ? orderById(orderPath[1]!) : undefined;

    if (req.method === 'GET' && pathname === '/') return send(res, 200, homePage(ordersNewestFirst()));
    if (req.method === 'GET' && pathname === '/thanks') {
      return send(res, 200, thanksPage(orderById(searchParams.get('order_id') ?? '')));
    }
    if (req.method === 'GET' && order && !orderPath![2]) {
      return send(res, 200, orderPage(order, refundsOf(order), fromCents(refundableCents(order))));
    }
    if (req.method !== 'POST') return send(res, 404, messagePage('Not found', 'There is no such page.'));

    const body = await readBody(req);
    if (!body) return send(res, 413, messagePage('Too large', 'That request is too large.'));
    const { store, config } = shop;
    if (pathname === '/webhooks/checkout') {
      const status = await handleCheckoutWebhook(store, config.checkoutApiSecret, body, req.headers);
      return void res.writeHead(status).end();
    }
    if (pathname === '/webhooks/payouts') {
      const status = await handlePayoutWebhook(store, config.payoutWebhookSecret, body, req.headers);
      return void res.writeHead(status).end();
    }
    const form = new URLSearchParams(body.toString('utf8'));
    if (pathname === '/orders') return buy(res, form);
    if (order && orderPath![2]) {
      const done = refunding.then(() => refund(res, order, form));
      refunding = done.catch(() => undefined);
      return done;
    }
    return send(res, 404, messagePage('Not found', 'There is no such order.'));
  }

  /** Creates a card order and sends the browser to its hosted payment page. */
  async function buy(res: ServerResponse, form: URLSearchParams): Promise<void> {
    const product = form.get('product')?.trim() ?? '';
    const customer = form.get('email')?.trim() ?? '';
    const cents = toCents(form.get('amount') ?? '');
    if (!product || !customer || cents === undefined || cents < 50) {
      const error = 'Enter a product, an amount such as 24.90 (at least 0.50) and an e-mail.';
      return send(res, 422, homePage(ordersNewestFirst(), error));
    }
    const created = await shop.checkout.orders.create('card', {
      amount: Number(fromCents(cents)), // a JSON number with at most 2 decimals, written exactly
      currency: 'USD',
      customer,
      product,
      redirect_url: `${shop.publicUrl}/thanks`,
    });
    const at = new Date().toISOString();
    await shop.store.update((data) => {
      data.orders[String(created.order_id)] = {
        id: created.order_id,
        product,
        amount: created.amount,
        currency: 'USD',
        customer,
        status: 'pending',
        history: [{ status: 'pending', source: 'shop', at }],
      };
    });
    res.writeHead(303, { location: created.order_url }).end();
  }

  /** Refunds part of a paid order as a link payout, and shows the claim link to send the customer. */
  async function refund(res: ServerResponse, order: OrderRecord, form: URLSearchParams): Promise<void> {
    const left = refundableCents(order);
    const cents = toCents(form.get('amount') ?? '');
    if (order.status !== 'paid' || cents === undefined || cents < 1 || cents > left) {
      const error =
        order.status === 'paid' ? `Enter an amount from 0.01 to ${fromCents(left)}.` : 'Not paid.';
      return send(res, 422, orderPage(order, refundsOf(order), fromCents(left), error));
    }
    // The reference is unique for ever at the service: a second submit of the same refund is refused there.
    const reference = `refund-${order.id}-${refundsOf(order).length + 1}`;
    const payout = await shop.payouts.payouts.create({
      amount: fromCents(cents),
      currency: 'USD',
      delivery: 'link',
      customer_email: order.customer,
      merchant_reference: reference,
      original_payment_id: String(order.id),
      description: `Refund for order ${order.id} (${order.product})`,
    });
    const record: RefundRecord = {
      payout_id: payout.payout_id,
      order_id: order.id,
      merchant_reference: reference,
      amount: payout.amount,
      status: payout.status,
      status_version: payout.status_version,
      history: [{ status: payout.status, source: 'shop', at: new Date().toISOString() }],
    };
    await shop.store.update((data) => {
      data.refunds[record.payout_id] = record;
    });
    // A replayed create answers no link; Get Claim Link gives it again.
    const claimUrl = payout.payout_url ?? (await shop.payouts.payouts.claimLink(payout.payout_id)).url;
    send(res, 201, refundCreatedPage(order, record, claimUrl));
  }

  /** Own keys only: an id from an address is never `__proto__` or the like. */
  function orderById(id: string): OrderRecord | undefined {
    return Object.hasOwn(shop.store.data.orders, id) ? shop.store.data.orders[id] : undefined;
  }

  function ordersNewestFirst(): OrderRecord[] {
    return Object.values(shop.store.data.orders).sort((a, b) => b.id - a.id);
  }

  function refundsOf(order: OrderRecord): RefundRecord[] {
    return Object.values(shop.store.data.refunds).filter((r) => r.order_id === order.id);
  }

  function refundableCents(order: OrderRecord): number {
    const refunded = refundsOf(order)
      .filter((r) => !MONEY_RETURNED.has(r.status))
      .reduce((sum, r) => sum + toCents(r.amount)!, 0);
    return toCents(order.amount)! - refunded;
  }

  return (req, res) => {
    route(req, res).catch((error: unknown) => {
      const refused = error instanceof PayoutsApiError && error.status < 500;
      if (!refused) (shop.config.log ?? console.log)(`shop: ${req.method} ${req.url}: ${String(error)}`);
      if (res.headersSent) return void res.end();
      if (refused) send(res, 422, messagePage('Refused', `The payment service refused: ${error.message}`));
      else send(res, 500, messagePage('Please try again', 'Something went wrong.'));
    });
  };
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
  });
  res.end(html);
}

/** The raw bytes (webhook signatures cover them exactly); undefined past 64 KiB. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
