import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Measure, toMeasure } from './api-measures';
import type { ClosedLoop } from './api-scenarios';

/** A sandbox account with a checkout key: the key's bearer token. */
export async function setUpCheckoutAccount(
  base: string,
  operatorToken: string,
  name: string,
): Promise<string> {
  const json = async (path: string, token: string, body: unknown) => {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, string>>;
  };
  const account = await json('/operator/accounts', operatorToken, { name, region: 'US' });
  const key = await json('/dashboard/credentials', account.admin_token!, {
    kind: 'checkout',
    environment: 'sandbox',
  });
  return key.token!;
}

/** order id → the key of the account that created it. */
const owners = new Map<number, string>();

/** Create Order by card: a unique customer per request, spread round-robin over the accounts' keys. */
export async function runCreateOrder(
  target: Measure['target'],
  base: string,
  keys: string[],
  created: number[],
  load: ClosedLoop,
): Promise<Measure> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: load.connections,
    duration: load.seconds,
    requests: [
      {
        method: 'POST',
        path: '/sandbox/card',
        setupRequest: (request, context) => {
          const key = keys[(next += 1) % keys.length]!;
          (context as { key?: string }).key = key;
          return {
            ...request,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({
              amount: 10.5,
              currency: 'USD',
              customer: `payer-${randomUUID()}@example.com`,
              product: 'Bench product',
            }),
          };
        },
        onResponse: (status, body, context) => {
          if (status !== 200 || created.length >= 50_000) return;
          const id = (JSON.parse(body) as { order_id: number }).order_id;
          created.push(id);
          owners.set(id, (context as { key?: string }).key ?? keys[0]!);
        },
      },
    ],
  });
  return toMeasure(target, 'create-order', result);
}

/** Get Payment Status over the orders the create runs made, each with its owner's key. */
export async function runOrderStatus(
  target: Measure['target'],
  base: string,
  keys: string[],
  created: number[],
  load: ClosedLoop,
): Promise<Measure> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: load.connections,
    duration: load.seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const id = created.length > 0 ? created[(next += 1) % created.length]! : 1;
          const key = owners.get(id) ?? keys[0]!;
          return {
            ...request,
            path: `/sandbox/payment/status?payment_id=${id}`,
            headers: { authorization: `Bearer ${key}` },
          };
        },
      },
    ],
  });
  return toMeasure(target, 'order-status', result);
}
