import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { openProxyTunnel, ProxyTunnelError } from './proxy-tunnel';
import { SIGNATURE_HEADER } from './signature';
import type { ResolvedTarget } from './target-policy';

/** Issue 5 fixed it (docs/design.md#schedule): an attempt gets 10 s in all, connect to last byte. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Reading stops here (the rest is not needed to judge the answer); the connection is then dropped. */
export const MAX_RESPONSE_BYTES_READ = 64 * 1024;
/** What the delivery log keeps of a response body, in characters. */
export const MAX_RESPONSE_BODY_KEPT = 1_024;
const MAX_ERROR_LENGTH = 300;
export const USER_AGENT = 'payouts-webhooks/1';

export interface AttemptResult {
  /** A 2xx status arrived. Redirects are never followed: a 3xx is a failed attempt. */
  delivered: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** Why no 2xx arrived (or what went wrong after it); null on a clean 2xx. */
  error: string | null;
  /** The start of the response body, at most MAX_RESPONSE_BODY_KEPT characters. */
  responseBody: string | null;
}

/**
 * Keep-alive pools, one per scheme, as large as a dispatcher's attempts in flight (a smaller free
 * pool closes and reopens connections after every burst). An idle connection closes after 30 s.
 * A pooled connection always goes to an address that passed
 * the check when it was opened (the check depends on the address only, never on time).
 * Attempts through the proxy are not pooled: each opens its own tunnel to the address checked for
 * it, and the proxy sees one CONNECT per attempt.
 */
const POOL = { keepAlive: true, maxSockets: 128, maxFreeSockets: 128, timeout: 30_000 } as const;
const agents = { 'http:': new http.Agent(POOL), 'https:': new https.Agent(POOL) };

export interface PostOptions {
  timeoutMs?: number;
  /** The header the signature goes in: the payout webhook's unless another is given (checkout). */
  signatureHeaderName?: string;
  /**
   * WEBHOOK_PROXY_URL: leave through this HTTP forward proxy (one egress address), asking it for
   * `target.address`, never the name (proxy-tunnel.ts). Unset: connect directly.
   */
  proxyUrl?: URL;
}

/**
 * One POST of the body to the checked target, connecting to `target.address` (the lookup is
 * answered with it; the URL's name is still the Host header and the TLS server name, so the
 * certificate is checked against the name), directly or through a tunnel of the forward proxy.
 * Never throws: every outcome is an AttemptResult. The time limit covers the proxy too.
 */
export function postWebhook(
  target: ResolvedTarget,
  body: string,
  signatureHeader: string,
  options: PostOptions = {},
): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checkedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    // Node asks for every address when it tries several families (autoSelectFamily).
    if (lookupOptions.all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
  const protocol = target.url.protocol === 'https:' ? 'https:' : 'http:';
  const client = protocol === 'https:' ? https : http;
  const headers = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'user-agent': USER_AGENT,
    [options.signatureHeaderName ?? SIGNATURE_HEADER]: signatureHeader,
  };
  const path = `${target.url.pathname}${target.url.search}`;

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    const kept: Buffer[] = [];
    let read = 0;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
      resolve({
        delivered,
        statusCode,
        latencyMs: elapsed(),
        error: error ?? (delivered || statusCode === null ? null : describeStatus(statusCode)),
        responseBody: statusCode === null ? null : keptText(kept),
      });
    };
    const tunnelTime = new AbortController();
    let request: http.ClientRequest | undefined;
    const timer = setTimeout(() => {
      finish(`timeout: no complete answer within ${timeoutMs / 1000} s`);
      tunnelTime.abort();
      request?.destroy();
    }, timeoutMs);
    const send = (tunnel: Duplex | undefined) => {
      request = tunnel
        ? // TLS (for https) already runs inside the tunnel: plain HTTP/1.1 over it, Host as direct.
          http.request({
            host: target.host,
            port: target.port,
            path,
            method: 'POST',
            createConnection: () => tunnel,
            headers: { host: hostHeader(target), ...headers },
          })
        : client.request({
            protocol,
            host: target.host,
            port: target.port,
            path,
            method: 'POST',
            agent: agents[protocol],
            lookup: checkedLookup,
            headers,
          });
      request.on('error', (error) => finish(describeError(error)));
      request.on('response', (response) => {
        statusCode = response.statusCode ?? null;
        response.on('data', (chunk: Buffer) => {
          if (read < MAX_RESPONSE_BYTES_READ) kept.push(chunk.subarray(0, MAX_RESPONSE_BYTES_READ - read));
          read += chunk.length;
          if (read >= MAX_RESPONSE_BYTES_READ) {
            finish(null);
            response.destroy();
          }
        });
        response.on('end', () => finish(null));
        response.on('error', (error) => finish(describeError(error)));
        response.on('close', () => finish(response.complete ? null : 'the connection closed mid-answer'));
      });
      request.end(body);
      // The tunnel was paused once CONNECT was answered so that no byte flows past unread. The
      // request attaches its parser on the next tick, before this resume takes effect.
      tunnel?.resume();
    };
    if (options.proxyUrl === undefined) {
      send(undefined);
    } else {
      openProxyTunnel(options.proxyUrl, target, tunnelTime.signal).then(
        (tunnel) => {
          if (settled)
            tunnel.destroy(); // the time ran out as the tunnel opened
          else send(tunnel);
        },
        (error: Error) => finish(describeError(error)),
      );
    }
  });
}

/** As Node writes it for a direct request: the name (IPv6 in brackets), and the port unless default. */
function hostHeader(target: ResolvedTarget): string {
  const name = isIP(target.host) === 6 ? `[${target.host}]` : target.host;
  const defaultPort = target.url.protocol === 'https:' ? 443 : 80;
  return target.port === defaultPort ? name : `${name}:${target.port}`;
}

function describeStatus(statusCode: number): string {
  if (statusCode >= 300 && statusCode < 400) return `HTTP ${statusCode}: redirects are not followed`;
  return `HTTP ${statusCode}: not a 2xx answer`;
}

function describeError(error: Error): string {
  if (error instanceof ProxyTunnelError) {
    const text = error.reason ? `proxy: ${describeError(error.reason)}` : error.message;
    return text.slice(0, MAX_ERROR_LENGTH);
  }
  const code = (error as { code?: string }).code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ETIMEDOUT: 'connection timed out',
    EPIPE: 'connection closed while sending',
  };
  const text = code && known[code] ? known[code] : `${code ?? 'error'}: ${error.message}`;
  const tls = code && (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL'));
  return (tls ? `tls: ${text}` : text).slice(0, MAX_ERROR_LENGTH);
}

/** UTF-8, cut to what the log keeps; NUL removed (PostgreSQL text cannot hold it). */
function keptText(chunks: Buffer[]): string | null {
  if (chunks.length === 0) return '';
  const text = Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '');
  return text.slice(0, MAX_RESPONSE_BODY_KEPT);
}
