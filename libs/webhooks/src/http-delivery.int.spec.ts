import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postWebhook } from './http-delivery';
import type { ResolvedTarget } from './target-policy';

/** Real HTTP servers on loopback: what each receiver saw, and the answer it gave. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void,
): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      handler(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

function target(url: string, address = '127.0.0.1'): ResolvedTarget {
  const parsed = new URL(url);
  return {
    url: parsed,
    host: parsed.hostname,
    port: Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80),
    address,
    family: 4,
  };
}

const BODY = '{"type":"payout.test","id":"evt_test_1","data":{}}';
const SIGNATURE = 't=1700000000,v1=' + 'a'.repeat(64);

describe('posting a webhook over real HTTP', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const receiver = async (handler: Parameters<typeof listen>[0]) => {
    const started = await listen(handler);
    servers.push(started.server);
    return started;
  };

  it('POSTs the body as JSON with the signature header, and a 2xx counts as delivered', async () => {
    const { port, seen } = await receiver((_req, res) => res.writeHead(200).end('thanks'));
    const result = await postWebhook(target(`http://127.0.0.1:${port}/hooks?src=payouts`), BODY, SIGNATURE);
    expect(result).toMatchObject({ delivered: true, statusCode: 200, error: null, responseBody: 'thanks' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/hooks?src=payouts', body: BODY });
    expect(seen[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-payout-signature': SIGNATURE,
      'content-length': String(Buffer.byteLength(BODY)),
    });
  });

  it('counts 204 as delivered', async () => {
    const { port } = await receiver((_req, res) => res.writeHead(204).end());
    expect(await postWebhook(target(`http://127.0.0.1:${port}/`), BODY, SIGNATURE)).toMatchObject({
      delivered: true,
      statusCode: 204,
      responseBody: '',
    });
  });

  it.each([301, 302, 307, 308])(
    'never follows a %i redirect and counts it as a failed attempt',
    async (status) => {
      const elsewhere = await receiver((_req, res) => res.writeHead(200).end());
      const { port } = await receiver((_req, res) =>
        res.writeHead(status, { location: `http://127.0.0.1:${elsewhere.port}/other` }).end(),
      );
      const result = await postWebhook(target(`http://127.0.0.1:${port}/`), BODY, SIGNATURE);
      expect(result).toMatchObject({
        delivered: false,
        statusCode: status,
        error: `HTTP ${status}: redirects are not followed`,
      });
      expect(elsewhere.seen).toHaveLength(0);
    },
  );

  it('counts a 500 as failed and keeps the first 1,024 characters of the answer', async () => {
    const { port } = await receiver((_req, res) => res.writeHead(500).end(`oops ${'x'.repeat(5_000)}`));
    const result = await postWebhook(target(`http://127.0.0.1:${port}/`), BODY, SIGNATURE);
    expect(result).toMatchObject({ delivered: false, statusCode: 500, error: 'HTTP 500: not a 2xx answer' });
    expect(result.responseBody).toHaveLength(1_024);
    expect(result.responseBody!.startsWith('oops x')).toBe(true);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const { port, seen } = await receiver(() => undefined); // never answers
    const result = await postWebhook(target(`http://127.0.0.1:${port}/`), BODY, SIGNATURE, {
      timeoutMs: 300,
    });
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: 'timeout: no complete answer within 0.3 s',
      responseBody: null,
    });
    expect(seen).toHaveLength(1);
  });

  it('reports a refused connection', async () => {
    const { server, port } = await listen(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    expect(await postWebhook(target(`http://127.0.0.1:${port}/`), BODY, SIGNATURE)).toMatchObject({
      delivered: false,
      statusCode: null,
      error: 'connection refused',
    });
  });

  it('connects to the checked address, whatever the name in the URL would resolve to now', async () => {
    const { port, seen } = await receiver((_req, res) => res.writeHead(200).end());
    // No DNS knows this name: the only way to reach the receiver is the checked address.
    const result = await postWebhook(
      target(`http://hooks.payouts-test.invalid:${port}/x`, '127.0.0.1'),
      BODY,
      SIGNATURE,
    );
    expect(result).toMatchObject({ delivered: true, statusCode: 200 });
    expect(seen[0]!.headers.host).toBe(`hooks.payouts-test.invalid:${port}`);
  });

  it('stops reading a huge answer and still judges it by its status', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(200);
      res.end('y'.repeat(1_000_000));
    });
    const result = await postWebhook(target(`http://127.0.0.1:${port}/`), BODY, SIGNATURE);
    expect(result).toMatchObject({ delivered: true, statusCode: 200 });
    expect(result.responseBody).toHaveLength(1_024);
  });

  it('checks the TLS certificate against the name in the URL (a self-signed one is refused)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-subj',
          '/CN=hooks.payouts-test.invalid',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
        ],
        { stdio: 'ignore' },
      );
      let reached = 0;
      const server = createTlsServer(
        { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
        (_req, res) => {
          reached += 1;
          res.writeHead(200).end();
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      const port = (server.address() as AddressInfo).port;
      const result = await postWebhook(
        target(`https://hooks.payouts-test.invalid:${port}/`),
        BODY,
        SIGNATURE,
      );
      expect(result.delivered).toBe(false);
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/^tls: /);
      expect(reached).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
