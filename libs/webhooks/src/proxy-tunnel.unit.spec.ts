import { connectAuthority, proxyAuthorization } from './proxy-tunnel';
import type { ResolvedTarget } from './target-policy';

const target = (url: string, address: string, family: 4 | 6): ResolvedTarget => {
  const parsed = new URL(url);
  return { url: parsed, host: parsed.hostname, port: Number(parsed.port) || 443, address, family };
};

describe('what the forward proxy is asked for', () => {
  it('is the checked address and port, never the name', () => {
    expect(connectAuthority(target('https://hooks.example.com/x', '93.184.216.34', 4))).toBe(
      '93.184.216.34:443',
    );
    expect(connectAuthority(target('https://hooks.example.com:8443/', '93.184.216.34', 4))).toBe(
      '93.184.216.34:8443',
    );
  });

  it('puts an IPv6 address in brackets', () => {
    expect(connectAuthority(target('https://hooks.example.com/', '2606:2800:220:1::1', 6))).toBe(
      '[2606:2800:220:1::1]:443',
    );
  });
});

describe('Proxy-Authorization from WEBHOOK_PROXY_URL', () => {
  it('is absent without a user name or password', () => {
    expect(proxyAuthorization(new URL('http://egress-proxy:3128'))).toBeUndefined();
  });

  it('is Basic with the decoded user name and password', () => {
    expect(proxyAuthorization(new URL('http://egress:p%40ss%20word@egress-proxy:3128'))).toBe(
      `Basic ${Buffer.from('egress:p@ss word').toString('base64')}`,
    );
    expect(proxyAuthorization(new URL('http://egress@egress-proxy:3128'))).toBe(
      `Basic ${Buffer.from('egress:').toString('base64')}`,
    );
  });
});
