import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** One request as a merchant's receiver sees it: the raw body bytes and the headers. */
export interface ReceivedWebhook {
  at: number;
  path: string;
  signature: string | undefined;
  headers: IncomingMessage['headers'];
  rawBody: string;
}

/** How the receiver answers: a status (and body, headers), or never (to make the sender time out). */
export type Answer =
  { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'never';

/**
 * A real HTTP server on loopback standing in for a merchant's webhook endpoint, for tests and the
 * benchmark. It records every request and every TCP connection made to it.
 */
export class TestReceiver {
  readonly received: ReceivedWebhook[] = [];
  connections = 0;
  answer: (request: ReceivedWebhook) => Answer = () => ({ status: 200, body: 'ok' });
  private readonly sockets = new Set<Socket>();
  private readonly waiters: { count: number; resolve: () => void }[] = [];

  private constructor(readonly server: Server) {}

  /** The port it listens on (loopback, chosen by the system). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  static async start(host = '127.0.0.1'): Promise<TestReceiver> {
    const server = createServer();
    const receiver = new TestReceiver(server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.handle(req, res));
    server.on('connection', (socket: Socket) => {
      receiver.connections += 1;
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return receiver;
  }

  url(path = '/webhooks/payouts', host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** Resolves once `count` requests in all have arrived. */
  waitForRequests(count: number, timeoutMs = 30_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`only ${this.received.length} of ${count} webhooks arrived in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const signature = req.headers['x-service-payout-signature'];
      const entry: ReceivedWebhook = {
        at: Date.now(),
        path: req.url ?? '',
        signature: Array.isArray(signature) ? signature[0] : signature,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      this.received.push(entry);
      for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
        if (this.received.length >= this.waiters[i]!.count) this.waiters.splice(i, 1)[0]!.resolve();
      }
      const answer = this.answer(entry);
      if (answer === 'never') return;
      const send = () => res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  }
}

/** Polls until `check` returns a value other than undefined (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not hold within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
