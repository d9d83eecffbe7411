import { once } from 'node:events';
import { AddressInfo, connect, createServer, Socket } from 'node:net';
import type { CreatePayoutRequest } from '@payouts/client';
import type { Call, Merchant } from '../api/gateway-harness';

/** Test support for the TypeScript client's suites. */

/** A link payout's body, as the client types it. */
export const linkPayout = (reference: string, amount = '10.00'): CreatePayoutRequest => ({
  amount,
  merchant_reference: reference,
  delivery: 'link',
  customer_email: `${reference}@example.com`,
});

/** List Payouts by merchant_reference, straight over HTTP (not through the client under test). */
export async function payoutsWithReference(call: Call, shop: Merchant, reference: string) {
  const answer = await call('GET', `/sandbox/api/payout/list?merchant_reference=${reference}`, {
    token: shop.token,
  });
  return answer.body; // {total, limit, offset, data}
}

/** Every item an async iterator gives. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

export interface Exchange {
  url: string;
  method: string;
  headers: Record<string, string>;
  at: number;
  /** The answer; undefined when the attempt got none (fetch threw). */
  response?: Response;
  /** The answer's body, read from a copy. */
  body?: string;
}

/**
 * The platform's fetch, recording every attempt the client makes (what it sent, when, and the
 * answer), passed as the client's `fetch` option. `onAnswer` may hold an answer back before the
 * client sees it.
 */
export function recordingFetch(onAnswer?: (response: Response, exchange: Exchange) => Promise<void> | void) {
  const exchanges: Exchange[] = [];
  const recorded = async (url: string, init: RequestInit): Promise<Response> => {
    const exchange: Exchange = {
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      at: Date.now(),
    };
    exchanges.push(exchange);
    const response = await fetch(url, init);
    exchange.response = response;
    exchange.body = await response.clone().text();
    await onAnswer?.(response, exchange);
    return response;
  };
  return { fetch: recorded, exchanges };
}

/**
 * A command the gateway has let in and not answered: a POST whose headers are sent and whose body
 * is not, on a raw connection. The admission gate counts a command from its headers (it refuses
 * before reading a body) until it is answered, so with a limit of one, every other command is
 * refused with 503 `overloaded` while this one is held. `release` sends the body (a create
 * without credentials: 401, nothing done) and resolves once it is answered.
 */
export async function holdCommand(gatewayUrl: string): Promise<{ release(): Promise<string> }> {
  const { hostname, port } = new URL(gatewayUrl);
  const body = '{}';
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    socket.write(
      `POST /sandbox/api/payout/create HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const closed = once(socket, 'close');
    // It holds the gate once another command is refused for it. A probe let in first is answered
    // 401 at once and leaves again; if it took the gate as the held command arrived, that one was
    // refused (it has an answer) and is sent again.
    for (;;) {
      const probe = await fetch(`${gatewayUrl}/sandbox/api/payout/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await probe.arrayBuffer();
      if (probe.status === 503 && answer === '') {
        return {
          release: async () => {
            socket.write(body);
            await closed;
            return answer;
          },
        };
      }
      if (answer !== '') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    socket.destroy();
  }
  throw new Error('a held command never took the admission gate');
}

/** What the relay does to the first connection made to it; later ones are relayed as they are. */
export type FirstConnection = 'reset_before_sending' | 'reset_after_answer_began';

/**
 * A real TCP relay on loopback in front of the gateway, breaking the first connection: either
 * reset as soon as the request arrives (the gateway never sees it), or the request relayed and the
 * connection reset when the gateway's answer begins (the work is done; the answer is lost). The
 * client sees a connection reset either way.
 */
export async function startFlakyRelay(target: string, first: FirstConnection) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((incoming) => {
    connections += 1;
    const upstream = connect(Number(port), hostname);
    for (const socket of [incoming, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    const breakBoth = () => {
      incoming.resetAndDestroy();
      upstream.destroy();
    };
    if (connections === 1 && first === 'reset_before_sending') {
      incoming.once('data', breakBoth);
      return;
    }
    incoming.pipe(upstream);
    if (connections === 1) upstream.once('data', breakBoth);
    else upstream.pipe(incoming);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
