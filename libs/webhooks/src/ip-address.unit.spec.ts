import { classifyAddress } from './ip-address';

describe('which addresses a payout webhook may reach', () => {
  it.each([
    ['0.0.0.0', '0.0.0.0/8 (this network)'],
    ['0.1.2.3', '0.0.0.0/8 (this network)'],
    ['10.0.0.1', '10.0.0.0/8 (private)'],
    ['10.255.255.255', '10.0.0.0/8 (private)'],
    ['100.64.0.1', '100.64.0.0/10 (shared address space, CGNAT)'],
    ['100.127.255.254', '100.64.0.0/10 (shared address space, CGNAT)'],
    ['127.0.0.1', '127.0.0.0/8 (loopback)'],
    ['127.255.0.9', '127.0.0.0/8 (loopback)'],
    ['169.254.169.254', '169.254.0.0/16 (link-local)'],
    ['172.16.0.1', '172.16.0.0/12 (private)'],
    ['172.31.255.255', '172.16.0.0/12 (private)'],
    ['192.0.0.8', '192.0.0.0/24 (IETF protocol assignments)'],
    ['192.0.2.10', '192.0.2.0/24 (documentation)'],
    ['192.88.99.1', '192.88.99.0/24 (6to4 relay anycast)'],
    ['192.168.1.1', '192.168.0.0/16 (private)'],
    ['198.18.0.1', '198.18.0.0/15 (benchmarking)'],
    ['198.19.255.255', '198.18.0.0/15 (benchmarking)'],
    ['198.51.100.7', '198.51.100.0/24 (documentation)'],
    ['203.0.113.9', '203.0.113.0/24 (documentation)'],
    ['224.0.0.251', '224.0.0.0/4 (multicast)'],
    ['239.255.255.250', '224.0.0.0/4 (multicast)'],
    ['240.0.0.1', '240.0.0.0/4 (reserved)'],
    ['255.255.255.255', '240.0.0.0/4 (reserved)'],
    ['::', '::/128 (unspecified)'],
    ['::1', '::1/128 (loopback)'],
    ['::7f00:1', '::/96 (IPv4-compatible, deprecated)'],
    ['::ffff:0:a00:1', '::ffff:0:0:0/96 (IPv4-translated)'],
    ['64:ff9b:1::a00:1', '64:ff9b:1::/48 (local-use NAT64)'],
    ['100::1', '100::/64 (discard-only)'],
    ['2001::1', '2001::/32 (Teredo)'],
    ['2001:2::1', '2001::/23 (IETF protocol assignments)'],
    ['2001:db8::1', '2001:db8::/32 (documentation)'],
    ['3fff::1', '3fff::/20 (documentation)'],
    ['5f00::1', '5f00::/16 (SRv6 SIDs)'],
    ['fc00::1', 'fc00::/7 (unique local)'],
    ['fd12:3456::1', 'fc00::/7 (unique local)'],
    ['fe80::1', 'fe80::/10 (link-local)'],
    ['fec0::1', 'fec0::/10 (site-local, deprecated)'],
    ['ff02::1', 'ff00::/8 (multicast)'],
    ['1::', 'outside 2000::/3 (reserved)'],
    ['4000::1', 'outside 2000::/3 (reserved)'],
  ])('refuses %s: in %s', (address, range) => {
    expect(classifyAddress(address)).toEqual({
      allowed: false,
      range,
      loopback: range.includes('loopback'),
    });
  });

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped', '127.0.0.1', '127.0.0.0/8 (loopback)', true],
    ['::ffff:7f00:1', 'IPv4-mapped', '127.0.0.1', '127.0.0.0/8 (loopback)', true],
    ['::ffff:10.0.0.1', 'IPv4-mapped', '10.0.0.1', '10.0.0.0/8 (private)', false],
    ['::ffff:169.254.169.254', 'IPv4-mapped', '169.254.169.254', '169.254.0.0/16 (link-local)', false],
    ['64:ff9b::10.0.0.1', 'NAT64', '10.0.0.1', '10.0.0.0/8 (private)', false],
    ['64:ff9b::7f00:1', 'NAT64', '127.0.0.1', '127.0.0.0/8 (loopback)', true],
    ['2002:a00:1::1', '6to4', '10.0.0.1', '10.0.0.0/8 (private)', false],
    ['2002:7f00:1::', '6to4', '127.0.0.1', '127.0.0.0/8 (loopback)', true],
    ['2002:c0a8:101::1', '6to4', '192.168.1.1', '192.168.0.0/16 (private)', false],
  ])('judges %s (%s of %s) by the IPv4 address inside: %s', (address, form, inner, range, loopback) => {
    expect(classifyAddress(address)).toEqual({
      allowed: false,
      range: `${address} is ${form} of ${inner}, in ${range}`,
      loopback,
    });
  });

  it.each([
    ['8.8.8.8', 4],
    ['1.1.1.1', 4],
    ['93.184.216.34', 4],
    ['100.63.255.255', 4],
    ['100.128.0.0', 4],
    ['172.32.0.1', 4],
    ['192.169.0.1', 4],
    ['223.255.255.255', 4],
    ['2606:4700:4700::1111', 6],
    ['2a00:1450:4001:80b::200e', 6],
    ['::ffff:8.8.8.8', 6],
    ['64:ff9b::808:808', 6],
    ['2002:808:808::1', 6],
  ])('allows the public address %s', (address, family) => {
    expect(classifyAddress(address)).toEqual({ allowed: true, family });
  });

  it.each([['fe80::1%eth0'], ['localhost'], ['127.1'], ['2130706433'], ['']])(
    'refuses %j, which is not a plain IP address',
    (address) => {
      expect(classifyAddress(address)).toMatchObject({ allowed: false, loopback: false });
    },
  );
});
