import { connect as netConnect, isIP, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { ResolvedTarget } from './target-policy';

/** A proxy's answer to CONNECT is a status line and a few headers; more than this is not one. */
const MAX_CONNECT_ANSWER_BYTES = 16 * 1024;

/**
 * The tunnel could not be opened. `reason` is the network error on the way to the proxy, when
 * that is what happened (the proxy is down or unreachable); otherwise the message says what the
 * proxy answered.
 */
export class ProxyTunnelError extends Error {
  constructor(
    message: string,
    readonly reason?: Error,
  ) {
    super(message);
    this.name = 'ProxyTunnelError';
  }
}

/**
 * What the proxy is asked for: the checked address, never the host name (IPv6 in brackets). The
 * proxy then has nothing to resolve, so it cannot be steered to an address the target checks
 * refused, and a name that resolves differently between the check and the connect (DNS
 * rebinding) changes nothing.
 */
export function connectAuthority(target: ResolvedTarget): string {
  const address = isIP(target.address) === 6 ? `[${target.address}]` : target.address;
  return `${address}:${target.port}`;
}

/** Basic credentials from `http://user:password@host:port`, as the URL holds them percent-encoded. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

/**
 * A connection to the checked target through the HTTP forward proxy (WEBHOOK_PROXY_URL), ready
 * for the request: `CONNECT <address>:<port>`, then, for an https target, TLS inside the tunnel
 * with the URL's name as the server name and the certificate checked against that name. Rejects
 * with a ProxyTunnelError when the proxy is unreachable or answers anything but 2xx, with the TLS
 * error when the handshake fails, and when `signal` aborts (the attempt's time is up).
 */
export async function openProxyTunnel(
  proxy: URL,
  target: ResolvedTarget,
  signal: AbortSignal,
): Promise<Duplex> {
  const tunnel = await connectThroughProxy(proxy, target, signal);
  if (target.url.protocol !== 'https:') return tunnel;
  return startTls(tunnel, target, signal);
}

function connectThroughProxy(proxy: URL, target: ResolvedTarget, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new ProxyTunnelError('aborted before the proxy was reached'));
      return;
    }
    const host = proxy.hostname.startsWith('[') ? proxy.hostname.slice(1, -1) : proxy.hostname;
    const socket = netConnect({ host, port: proxy.port === '' ? 80 : Number(proxy.port) });
    let head = Buffer.alloc(0);
    const settle = (error: Error | null) => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (error) {
        socket.destroy();
        reject(error);
      } else {
        resolve(socket);
      }
    };
    const onError = (error: Error) => settle(new ProxyTunnelError(`proxy: ${error.message}`, error));
    const onClose = () =>
      settle(new ProxyTunnelError('proxy closed the connection before answering CONNECT'));
    const onAbort = () => settle(new ProxyTunnelError('aborted while waiting for the proxy'));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_CONNECT_ANSWER_BYTES) {
          settle(new ProxyTunnelError('proxy answered CONNECT with an oversized header'));
        }
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1];
      if (status === undefined) {
        settle(new ProxyTunnelError('proxy answered CONNECT with something that is not HTTP'));
        return;
      }
      if (!status.startsWith('2')) {
        settle(new ProxyTunnelError(`proxy refused CONNECT: ${status}`));
        return;
      }
      // Whoever reads the tunnel next resumes it; nothing may flow past until then.
      socket.pause();
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      settle(null);
    };
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
    const authority = connectAuthority(target);
    const authorization = proxyAuthorization(proxy);
    socket.write(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n` +
        (authorization ? `Proxy-Authorization: ${authorization}\r\n` : '') +
        '\r\n',
    );
  });
}

/** TLS to the target inside the tunnel, as a direct https attempt would do it on its own socket. */
function startTls(tunnel: Socket, target: ResolvedTarget, signal: AbortSignal): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({
      socket: tunnel,
      // The certificate is checked against `host`; SNI is sent only for a name (RFC 6066).
      host: target.host,
      servername: isIP(target.host) ? undefined : target.host,
    });
    const settle = (error: Error | null) => {
      secure.off('secureConnect', onSecure);
      secure.off('error', onError);
      signal.removeEventListener('abort', onAbort);
      if (error) {
        secure.destroy();
        tunnel.destroy();
        reject(error);
      } else {
        resolve(secure);
      }
    };
    const onSecure = () => settle(null);
    const onError = (error: Error) => settle(error);
    const onAbort = () => settle(new ProxyTunnelError('aborted during the TLS handshake'));
    secure.once('secureConnect', onSecure);
    secure.once('error', onError);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
