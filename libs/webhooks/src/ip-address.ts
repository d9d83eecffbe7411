import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses a webhook may be sent to (docs/design.md#target-policy: "resolve to a public
 * address"). An address is refused when it is in any special-purpose range of the IANA registries
 * (RFC 6890 and later) that is not meant to be reached over the internet, and every IPv6 address
 * outside global unicast (2000::/3) is refused. IPv6 forms that carry an IPv4 address (IPv4-mapped,
 * NAT64 and 6to4) are judged by the IPv4 address inside, so ::ffff:127.0.0.1 is loopback like
 * 127.0.0.1.
 */
export type AddressVerdict =
  | { allowed: true; family: 4 | 6 }
  | {
      allowed: false;
      /** The range and its name, e.g. `10.0.0.0/8 (private)`. */
      range: string;
      /** 127.0.0.0/8 or ::1, in any form: the only blocked range WEBHOOK_ALLOW_INSECURE_TARGETS opens. */
      loopback: boolean;
    };

interface Range {
  base: bigint;
  prefix: number;
  label: string;
}

const V4_BLOCKED: readonly Range[] = [
  v4('0.0.0.0', 8, 'this network'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared address space, CGNAT'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'IETF protocol assignments'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, '6to4 relay anycast'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'benchmarking'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
  v4('255.255.255.255', 32, 'broadcast'),
];

/** Checked in this order, before the catch-all "outside 2000::/3". */
const V6_BLOCKED: readonly Range[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('::', 96, 'IPv4-compatible, deprecated'),
  v6('::ffff:0:0:0', 96, 'IPv4-translated'),
  v6('64:ff9b:1::', 48, 'local-use NAT64'),
  v6('100::', 64, 'discard-only'),
  v6('2001::', 32, 'Teredo'),
  v6('2001::', 23, 'IETF protocol assignments'),
  v6('2001:db8::', 32, 'documentation'),
  v6('3fff::', 20, 'documentation'),
  v6('5f00::', 16, 'SRv6 SIDs'),
  v6('fc00::', 7, 'unique local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'site-local, deprecated'),
  v6('ff00::', 8, 'multicast'),
];

const IPV4_MAPPED = v6('::ffff:0:0', 96, 'IPv4-mapped');
const NAT64 = v6('64:ff9b::', 96, 'NAT64');
const SIX_TO_FOUR = v6('2002::', 16, '6to4');
const GLOBAL_UNICAST = v6('2000::', 3, 'global unicast');

/** Judges one address as DNS or the URL parser gives it (dotted IPv4, or IPv6 without brackets). */
export function classifyAddress(address: string): AddressVerdict {
  if (isIPv4(address)) return classifyV4(parseV4(address));
  if (isIPv6(address) && !address.includes('%')) return classifyV6(parseV6(address), address);
  // Zone ids (fe80::1%eth0) and anything else that is not a plain address.
  return { allowed: false, range: `${address} (not an IP address)`, loopback: false };
}

function classifyV4(value: bigint): AddressVerdict {
  for (const range of V4_BLOCKED) {
    if (inRange(value, range, 32)) {
      return {
        allowed: false,
        range: `${formatV4(range.base)}/${range.prefix} (${range.label})`,
        loopback: range.label === 'loopback',
      };
    }
  }
  return { allowed: true, family: 4 };
}

function classifyV6(value: bigint, shown: string): AddressVerdict {
  // Forms that carry an IPv4 address are as good or as bad as the address they carry.
  for (const [form, embedded] of [
    [IPV4_MAPPED, value & 0xffff_ffffn],
    [NAT64, value & 0xffff_ffffn],
    [SIX_TO_FOUR, (value >> 80n) & 0xffff_ffffn],
  ] as const) {
    if (inRange(value, form, 128)) {
      const inner = classifyV4(embedded);
      if (inner.allowed) return { allowed: true, family: 6 };
      return {
        allowed: false,
        range: `${shown} is ${form.label} of ${formatV4(embedded)}, in ${inner.range}`,
        loopback: inner.loopback,
      };
    }
  }
  for (const range of V6_BLOCKED) {
    if (inRange(value, range, 128)) {
      return {
        allowed: false,
        range: `${formatV6Base(range)}/${range.prefix} (${range.label})`,
        loopback: range.label === 'loopback',
      };
    }
  }
  if (!inRange(value, GLOBAL_UNICAST, 128)) {
    return { allowed: false, range: `outside 2000::/3 (reserved)`, loopback: false };
  }
  return { allowed: true, family: 6 };
}

function inRange(value: bigint, range: Range, bits: 32 | 128): boolean {
  const shift = BigInt(bits - range.prefix);
  return value >> shift === range.base >> shift;
}

function v4(address: string, prefix: number, label: string): Range {
  return { base: parseV4(address), prefix, label };
}

function v6(address: string, prefix: number, label: string): Range {
  return { base: parseV6(address), prefix, label };
}

function parseV4(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** An IPv6 address (already checked by isIPv6) as a 128-bit number. */
function parseV6(address: string): bigint {
  let text = address.toLowerCase();
  // A dotted IPv4 tail stands for the last two groups: ::ffff:127.0.0.1 is ::ffff:7f00:1.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const value = parseV4(tail);
    text = `${text.slice(0, -tail.length)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const split = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const headGroups = split(head);
  const restGroups = rest === undefined ? [] : split(rest);
  const zeros = rest === undefined ? 0 : 8 - headGroups.length - restGroups.length;
  const groups = [...headGroups, ...new Array<number>(Math.max(zeros, 0)).fill(0), ...restGroups];
  if (groups.length !== 8) throw new Error(`cannot parse IPv6 address ${address}`);
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(group), 0n);
}

/** The range's base as people write it: the longest run of zero groups compressed to `::`. */
function formatV6Base(range: Range): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i -= 1) groups.push(((range.base >> BigInt(i * 16)) & 0xffffn).toString(16));
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === '0') j += 1;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.length < 2) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}
