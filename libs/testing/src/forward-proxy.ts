import { createServer, IncomingMessage } from 'node:http';
import { AddressInfo, connect as netConnect, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ForwardProxyOptions {
  /** Answer 403 to a CONNECT whose target (`host:port`, as asked) this returns true for. */
  refuse?: (target: string) => boolean;
  /** Answer 407 unless the Proxy-Authorization header is exactly this (e.g. `Basic dTpw`). */
  requireAuthorization?: string;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, for WEBHOOK_PROXY_URL. */
  url: string;
  /** Every CONNECT target as asked (`127.0.0.1:4000`, `[::1]:4000`), refused ones included. */
  connects: string[];
  close(): Promise<void>;
}

/**
 * A real, minimal HTTP forward proxy on loopback for tests: CONNECT only (other methods get 405),
 * recording each target and then piping bytes both ways to it, as squid does for the dispatcher's
 * egress (docker/egress-proxy/squid.conf).
 */
export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const connects: string[] = [];
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((_req, res) => {
    res.writeHead(405, { allow: 'CONNECT' }).end('CONNECT only');
  });
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = req.url ?? '';
    connects.push(target);
    client.on('error', () => client.destroy());
    if (
      options.requireAuthorization !== undefined &&
      req.headers['proxy-authorization'] !== options.requireAuthorization
    ) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const authority = parseAuthority(target);
    if (!authority || options.refuse?.(target)) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream: Socket = netConnect(authority);
    track(upstream);
    upstream.on('error', () => {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      upstream.destroy();
    });
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `host:port` or `[v6]:port` as CONNECT names it; undefined when it is neither. */
function parseAuthority(target: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(target);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: match[1] ?? match[2]!, port };
}
