import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { AddressInfo, createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, createServer as createTlsServer, Server as TlsServer } from 'node:tls';
import { ForwardProxy, startForwardProxy } from '@payouts/testing';
import { postWebhook } from './http-delivery';
import type { ResolvedTarget } from './target-policy';
import { TestReceiver } from './testing/receiver';

/** A target as resolveTarget gives it: the URL's name, and the address that passed the checks. */
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

/** No DNS knows this name, so only the checked address can reach the receiver. */
const NAME = 'hooks.payouts-test.invalid';
const BODY = '{"type":"payout.test","id":"evt_test_1","data":{}}';
const SIGNATURE = 't=1700000000,v1=' + 'a'.repeat(64);

describe('posting a webhook through the forward proxy (WEBHOOK_PROXY_URL)', () => {
  let receiver: TestReceiver;
  const proxies: ForwardProxy[] = [];
  const servers: (TcpServer | TlsServer)[] = [];
  const proxy = async (options?: Parameters<typeof startForwardProxy>[0]) => {
    const started = await startForwardProxy(options);
    proxies.push(started);
    return started;
  };
  beforeEach(async () => {
    receiver = await TestReceiver.start();
  });
  afterEach(async () => {
    await receiver.close();
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it('asks the proxy for the checked address, never the name, and sends the request through the tunnel', async () => {
    const forward = await proxy();
    const result = await postWebhook(target(`http://${NAME}:${receiver.port}/hooks?x=1`), BODY, SIGNATURE, {
      proxyUrl: new URL(forward.url),
    });
    expect(result).toMatchObject({ delivered: true, statusCode: 200, error: null, responseBody: 'ok' });
    expect(forward.connects).toEqual([`127.0.0.1:${receiver.port}`]);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.path).toBe('/hooks?x=1');
    expect(request!.rawBody).toBe(BODY);
    expect(request!.signature).toBe(SIGNATURE);
    expect(request!.headers.host).toBe(`${NAME}:${receiver.port}`);
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('opens one tunnel per attempt', async () => {
    const forward = await proxy();
    const options = { proxyUrl: new URL(forward.url) };
    const url = `http://${NAME}:${receiver.port}/`;
    for (let i = 0; i < 3; i += 1) {
      expect((await postWebhook(target(url), BODY, SIGNATURE, options)).delivered).toBe(true);
    }
    expect(forward.connects).toHaveLength(3);
    expect(receiver.connections).toBe(3);
  });

  it('reports a proxy that refuses CONNECT as a failed attempt, with nothing sent to the target', async () => {
    const forward = await proxy({ refuse: () => true });
    const result = await postWebhook(target(`http://${NAME}:${receiver.port}/`), BODY, SIGNATURE, {
      proxyUrl: new URL(forward.url),
    });
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: 'proxy refused CONNECT: 403',
      responseBody: null,
    });
    expect(forward.connects).toEqual([`127.0.0.1:${receiver.port}`]);
    expect(receiver.connections).toBe(0);
  });

  it('sends Basic Proxy-Authorization from the user and password in the proxy URL', async () => {
    const forward = await proxy({
      requireAuthorization: `Basic ${Buffer.from('egress:p@ss word').toString('base64')}`,
    });
    const url = `http://${NAME}:${receiver.port}/`;
    const withCredentials = new URL(forward.url);
    withCredentials.username = 'egress';
    withCredentials.password = 'p@ss word';
    expect(await postWebhook(target(url), BODY, SIGNATURE, { proxyUrl: withCredentials })).toMatchObject({
      delivered: true,
    });
    expect(await postWebhook(target(url), BODY, SIGNATURE, { proxyUrl: new URL(forward.url) })).toMatchObject(
      {
        delivered: false,
        error: 'proxy refused CONNECT: 407',
      },
    );
    expect(receiver.received).toHaveLength(1);
  });

  it('reports a proxy that is down', async () => {
    const forward = await startForwardProxy();
    await forward.close();
    expect(
      await postWebhook(target(`http://${NAME}:${receiver.port}/`), BODY, SIGNATURE, {
        proxyUrl: new URL(forward.url),
      }),
    ).toMatchObject({ delivered: false, statusCode: null, error: 'proxy: connection refused' });
    expect(receiver.connections).toBe(0);
  });

  it('gives up on a proxy that never answers CONNECT within the attempt time, and drops its connection', async () => {
    const open = new Set<Socket>();
    const silent = createTcpServer((socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.resume(); // reads (and so sees the close), never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push(silent);
    const port = (silent.address() as AddressInfo).port;
    const result = await postWebhook(target(`http://${NAME}:${receiver.port}/`), BODY, SIGNATURE, {
      proxyUrl: new URL(`http://127.0.0.1:${port}`),
      timeoutMs: 300,
    });
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: 'timeout: no complete answer within 0.3 s',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(open.size).toBe(0);
  });

  describe('https targets', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'webhook-proxy-tls-'));
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-subj',
          `/CN=${NAME}`,
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
        ],
        { stdio: 'ignore' },
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** A TLS server on loopback recording the server name (SNI) each ClientHello carried. */
    const tlsServer = async () => {
      const names: string[] = [];
      let handshakes = 0;
      const context = createSecureContext({
        key: readFileSync(join(dir, 'key.pem')),
        cert: readFileSync(join(dir, 'cert.pem')),
      });
      const server = createTlsServer({
        SNICallback: (servername, done) => {
          names.push(servername);
          done(null, context);
        },
        secureContext: context,
      });
      server.on('tlsClientError', () => undefined);
      server.on('connection', () => (handshakes += 1));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      return { port: (server.address() as AddressInfo).port, names, handshakes: () => handshakes };
    };

    it('runs TLS inside the tunnel with the URL name as SNI, and checks the certificate (self-signed is refused)', async () => {
      const forward = await proxy();
      const tls = await tlsServer();
      const result = await postWebhook(target(`https://${NAME}:${tls.port}/hooks`), BODY, SIGNATURE, {
        proxyUrl: new URL(forward.url),
      });
      expect(forward.connects).toEqual([`127.0.0.1:${tls.port}`]);
      expect(tls.handshakes()).toBe(1);
      expect(tls.names).toEqual([NAME]);
      expect(result.delivered).toBe(false);
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/^tls: .*self[- ]signed/);
    });

    it('sends no SNI for an IP-literal target (RFC 6066), and still checks the certificate', async () => {
      const forward = await proxy();
      const tls = await tlsServer();
      const result = await postWebhook(target(`https://127.0.0.1:${tls.port}/`), BODY, SIGNATURE, {
        proxyUrl: new URL(forward.url),
      });
      expect(forward.connects).toEqual([`127.0.0.1:${tls.port}`]);
      expect(tls.handshakes()).toBe(1);
      expect(tls.names).toEqual([]);
      expect(result.error).toMatch(/^tls: /);
    });
  });
});
