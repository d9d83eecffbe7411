import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Measure, toMeasure } from './api-measures';

/** Closed loop: `connections` connections, each sending its next request when the last is answered. */
export interface ClosedLoop {
  connections: number;
  seconds: number;
}

/** payout id → the token of the account that created it. */
const owners = new Map<string, string>();

/**
 * Create Payout: a unique Idempotency-Key and merchant_reference per request, spread round-robin
 * over `tokens`' accounts; up to 50,000 of the payouts made go into `created` for the get run.
 * `create-hot` is the same load with a single account's token.
 */
export async function runCreate(
  target: Measure['target'],
  base: string,
  tokens: string[],
  created: string[],
  load: ClosedLoop,
  scenario: 'create' | 'create-hot' = 'create',
): Promise<Measure> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: load.connections,
    duration: load.seconds,
    requests: [
      {
        method: 'POST',
        path: '/sandbox/api/payout/create',
        // Each connection sends one request at a time, so its context carries the token of the
        // request whose answer arrives next: that is how the get run knows each payout's owner.
        setupRequest: (request, context) => {
          const i = (next += 1);
          const reference = `bench-${randomUUID()}`;
          const token = tokens[i % tokens.length]!;
          (context as { token?: string }).token = token;
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${token}`,
              'idempotency-key': reference,
            },
            body: JSON.stringify(createPayoutBody(reference)),
          };
        },
        onResponse: (status, body, context) => {
          if (status !== 201 || created.length >= 50_000) return;
          const id = (JSON.parse(body) as { payout_id: string }).payout_id;
          created.push(id);
          owners.set(id, (context as { token?: string }).token ?? tokens[0]!);
        },
      },
    ],
  });
  return toMeasure(target, scenario, result);
}

/** Get Payout over the payouts the create runs made, each with its owner's token. */
export async function runGet(
  target: Measure['target'],
  base: string,
  tokens: string[],
  created: string[],
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
          const i = (next += 1) % Math.max(1, created.length);
          return {
            ...request,
            path: `/sandbox/api/payout/${created[i] ?? 'po_000000000000000000000000'}`,
            headers: { authorization: `Bearer ${owners.get(created[i] ?? '') ?? tokens[0]!}` },
          };
        },
      },
    ],
  });
  return toMeasure(target, 'get', result);
}

/** The Create Payout request body every scenario sends: 1.00 by claim link, to a unique address. */
export function createPayoutBody(reference: string): Record<string, string> {
  return {
    amount: '1.00',
    merchant_reference: reference,
    delivery: 'link',
    customer_email: `${reference}@example.com`,
  };
}
