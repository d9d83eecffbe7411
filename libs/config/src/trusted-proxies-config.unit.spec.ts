import { ConfigurationError, loadConfig } from './app-config';

describe('TRUSTED_PROXIES', () => {
  it('is empty by default: the TCP peer is the client', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' ' }).trustedProxies).toEqual([]);
  });

  it('takes IP addresses and CIDR ranges of both families, comma-separated', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7,fd00::/8, ::1' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '::1',
    ]);
  });

  it.each([
    ['a host name', 'proxy.internal'],
    ['a prefix too long for IPv4', '10.0.0.0/33'],
    ['a prefix that is not a number', '10.0.0.0/x'],
    ['two slashes', '10.0.0.0/8/8'],
    ['an empty entry', '10.0.0.1,,10.0.0.2'],
    ['a hop count (not supported: it trusts whatever sits in front)', '1'],
  ])('refuses %s, naming the variable', (_what, value) => {
    const load = () => loadConfig({ TRUSTED_PROXIES: value });
    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(/TRUSTED_PROXIES/);
  });
});
