import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AddressVerdict, classifyAddress } from './ip-address';

/**
 * Where a payout webhook may go (docs/design.md#target-policy): an https URL whose host resolves only to
 * public addresses. Checked when the URL is saved and again before every attempt, after DNS
 * resolution; the attempt then connects to the address that was checked (http-delivery.ts), so a
 * name that resolves differently a moment later (DNS rebinding) cannot reach anything else.
 */
export interface TargetPolicy {
  /**
   * WEBHOOK_ALLOW_INSECURE_TARGETS: also http and loopback, for local development and tests only.
   * Every other blocked range stays blocked.
   */
  allowInsecure: boolean;
}

export const MAX_WEBHOOK_URL_LENGTH = 2_048;
/** Bounded like every other wait: a name that does not resolve in this time is refused. */
export const DNS_TIMEOUT_MS = 5_000;
/** A host with more addresses than this is refused rather than checked address by address. */
const MAX_ADDRESSES = 32;

export type TargetRefusalCode =
  'invalid_url' | 'insecure_scheme' | 'credentials_in_url' | 'unresolvable_host' | 'blocked_address';

/**
 * `message` is shown to the caller (the dashboard, the delivery log). For a name it never says
 * what the name resolved to, or whether it resolved at all: that would make the webhook form a
 * DNS look-up tool for the service's own network. `detail` says so, for the service's logs only.
 */
export class TargetRefusedError extends Error {
  constructor(
    readonly code: TargetRefusalCode,
    message: string,
    readonly detail: string = message,
  ) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

export interface ResolvedTarget {
  url: URL;
  /** The host as written in the URL, without IPv6 brackets: the Host header and the TLS server name. */
  host: string;
  port: number;
  /** The checked address the request connects to. */
  address: string;
  family: 4 | 6;
}

/** Resolves a name to every address it has (A and AAAA). Injectable so tests can use names of their own. */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The checks that need no network: a well-formed absolute https URL (http only when insecure
 * targets are allowed), no user name or password in it (they would be stored and sent in clear),
 * and, when the host is an IP literal in any spelling (the URL parser turns 2130706433, 0x7f.1 and
 * 127.1 into 127.0.0.1), an allowed address.
 */
export function parseTargetUrl(raw: string, policy: TargetPolicy): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_WEBHOOK_URL_LENGTH) {
    throw new TargetRefusedError('invalid_url', `the URL must be 1 to ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError('invalid_url', 'the URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowInsecure && url.protocol === 'http:')) {
    throw new TargetRefusedError('insecure_scheme', 'the URL must use https');
  }
  if (url.username !== '' || url.password !== '') {
    throw new TargetRefusedError('credentials_in_url', 'the URL must not contain a user name or password');
  }
  if (url.hostname === '') throw new TargetRefusedError('invalid_url', 'the URL has no host');
  const host = hostOf(url);
  if (isIP(host)) assertAllowed(host, classifyAddress(host), policy);
  return url;
}

/**
 * Every check: the URL's form, then the host's addresses after resolution. All of them must be
 * allowed (a name that also resolves to a private address is refused, whichever one a client
 * would pick); the first is the one to connect to.
 */
export async function resolveTarget(
  raw: string,
  policy: TargetPolicy,
  resolve: ResolveHost = systemResolver,
): Promise<ResolvedTarget> {
  const url = parseTargetUrl(raw, policy);
  const host = hostOf(url);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (isIP(host)) {
    return { url, host, port, address: host, family: isIP(host) === 6 ? 6 : 4 };
  }
  const addresses = await resolveWithTimeout(host, resolve);
  if (addresses.length === 0) throw nameRefused('unresolvable_host', host, `${host} has no address`);
  if (addresses.length > MAX_ADDRESSES) {
    throw nameRefused('unresolvable_host', host, `${host} has more than ${MAX_ADDRESSES} addresses`);
  }
  for (const { address } of addresses) {
    const range = refusedRange(classifyAddress(address), policy);
    if (range !== undefined) {
      throw nameRefused('blocked_address', host, `${host} resolves to ${address}: ${range}`);
    }
  }
  const first = addresses[0]!;
  return { url, host, port, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The blocked range an address is in, or undefined when the policy allows it. */
function refusedRange(verdict: AddressVerdict, policy: TargetPolicy): string | undefined {
  if (verdict.allowed || (policy.allowInsecure && verdict.loopback)) return undefined;
  return verdict.range;
}

/** An IP literal is the caller's own input: naming its range tells them nothing new. */
function assertAllowed(address: string, verdict: AddressVerdict, policy: TargetPolicy): void {
  const range = refusedRange(verdict, policy);
  if (range === undefined) return;
  throw new TargetRefusedError('blocked_address', `${address} is not a public address: ${range}`);
}

/** The same words whether the name resolved to a blocked address, to nothing, or not in time. */
function nameRefused(code: TargetRefusalCode, host: string, detail: string): TargetRefusedError {
  return new TargetRefusedError(code, `${host} does not resolve to a public address`, detail);
}

/** URL.hostname keeps IPv6 brackets and a trailing dot; neither is part of the address or name. */
function hostOf(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.endsWith('.') && !isIP(host) ? host.slice(0, -1) : host;
}

async function resolveWithTimeout(
  host: string,
  resolve: ResolveHost,
): Promise<{ address: string; family: number }[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(nameRefused('unresolvable_host', host, `${host} did not resolve in time`)),
          DNS_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    if (error instanceof TargetRefusedError) throw error;
    const code = (error as { code?: string }).code ?? 'error';
    throw nameRefused('unresolvable_host', host, `${host} does not resolve (${code})`);
  } finally {
    clearTimeout(timer);
  }
}
