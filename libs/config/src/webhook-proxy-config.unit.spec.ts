import { ConfigurationError, loadConfig } from './app-config';

describe('WEBHOOK_PROXY_URL', () => {
  it('is unset by default: attempts connect directly', () => {
    expect(loadConfig({}).webhooks.proxyUrl).toBeUndefined();
    expect(loadConfig({ WEBHOOK_PROXY_URL: '' }).webhooks.proxyUrl).toBeUndefined();
  });

  it('takes an http forward proxy address, with or without credentials', () => {
    const plain = loadConfig({ WEBHOOK_PROXY_URL: 'http://egress-proxy:3128' }).webhooks.proxyUrl;
    expect(plain?.href).toBe('http://egress-proxy:3128/');
    const withCredentials = loadConfig({ WEBHOOK_PROXY_URL: 'http://egress:s3cret@10.0.0.5:3128/' }).webhooks
      .proxyUrl;
    expect([withCredentials?.hostname, withCredentials?.port, withCredentials?.username]).toEqual([
      '10.0.0.5',
      '3128',
      'egress',
    ]);
  });

  it.each([
    ['an https scheme', 'https://egress-proxy:3128'],
    ['a SOCKS scheme', 'socks5://egress-proxy:1080'],
    ['a path', 'http://egress-proxy:3128/proxy'],
    ['a query', 'http://egress-proxy:3128/?via=1'],
    ['a fragment', 'http://egress-proxy:3128/#x'],
    ['garbage', 'not a url'],
    ['a bare host and port', 'egress-proxy:3128'],
  ])('refuses %s, naming the variable', (_what, value) => {
    const load = () => loadConfig({ WEBHOOK_PROXY_URL: value });
    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(/WEBHOOK_PROXY_URL/);
  });

  it('never repeats the value in its refusal (it may hold the proxy password)', () => {
    let message = '';
    try {
      loadConfig({ WEBHOOK_PROXY_URL: 'https://egress:s3cret-pass@egress-proxy:3128' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/WEBHOOK_PROXY_URL/);
    expect(message).not.toContain('s3cret-pass');
  });
});
