import { normaliseOrigin, originOf } from './index';

describe('normalising a return URL origin', () => {
  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['https://shop.example/', 'https://shop.example'],
    // Case: scheme and host are lowercased (paths would not be, but paths are ignored).
    ['HTTPS://Shop.EXAMPLE', 'https://shop.example'],
    ['Http://SHOP.example:8080', 'http://shop.example:8080'],
    // Default ports are dropped, other ports kept.
    ['https://shop.example:443', 'https://shop.example'],
    ['http://shop.example:80', 'http://shop.example'],
    ['https://shop.example:80', 'https://shop.example:80'],
    ['http://shop.example:443', 'http://shop.example:443'],
    ['https://shop.example:8443', 'https://shop.example:8443'],
    ['https://shop.example:08443', 'https://shop.example:8443'],
    // Paths, queries and fragments are not part of an origin.
    ['https://shop.example/checkout/done?order=1#top', 'https://shop.example'],
    ['https://shop.example:443/Path/Kept/Out', 'https://shop.example'],
    ['https://shop.example?x=1', 'https://shop.example'],
    // Hosts: IP addresses, IPv6, international names (punycode), localhost.
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['https://[2001:DB8::1]:443', 'https://[2001:db8::1]'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['http://localhost:4200/app', 'http://localhost:4200'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseOrigin(input)).toBe(expected);
  });

  it.each([
    [''],
    ['shop.example'],
    ['//shop.example'],
    ['ftp://shop.example'],
    ['javascript:alert(1)'],
    ['data:text/html,hi'],
    ['file:///etc/passwd'],
    ['mailto:a@shop.example'],
    ['ws://shop.example'],
    ['https://'],
    ['https:///path-only'],
    ['https:shop.example'], // the URL parser would accept it; an origin is written out in full
    ['https:\\\\shop.example'],
    ['https://user:pass@shop.example'], // credentials are not part of an origin
    ['https://shop.example@evil.example'],
    ['https://shop.example:99999'],
    ['https://shop example'],
    [' https://shop.example'],
    ['https://shop.example\n'],
    ['not a url'],
  ])('%j is refused', (input) => {
    expect(normaliseOrigin(input)).toBeNull();
  });

  it('refuses a value that is not a string', () => {
    expect(normaliseOrigin(undefined as unknown as string)).toBeNull();
    expect(normaliseOrigin({} as unknown as string)).toBeNull();
  });
});

describe('the origin of a return_url', () => {
  it.each([
    ['https://shop.example/orders/42/done?x=y', 'https://shop.example'],
    ['https://SHOP.example:443/a', 'https://shop.example'],
    ['http://shop.example:8080/back', 'http://shop.example:8080'],
    ['https://pay.shop.example/back', 'https://pay.shop.example'],
  ])('%s comes from %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });

  it('matches registered origins exactly: scheme, host and port', () => {
    const registered = ['https://shop.example', 'http://localhost:3000'].map((o) => normaliseOrigin(o));
    const allowed = (url: string) => registered.includes(originOf(url));
    expect(allowed('https://shop.example/back')).toBe(true);
    expect(allowed('HTTPS://shop.example:443/back')).toBe(true);
    expect(allowed('http://shop.example/back')).toBe(false); // scheme
    expect(allowed('https://pay.shop.example/back')).toBe(false); // subdomain
    expect(allowed('https://shop.example.evil.example/back')).toBe(false);
    expect(allowed('https://shop.example:8443/back')).toBe(false); // port
    expect(allowed('https://shop.example@evil.example/back')).toBe(false);
    expect(allowed('http://localhost:3000/x')).toBe(true);
    expect(allowed('http://localhost:3001/x')).toBe(false);
    expect(allowed('javascript:alert(1)')).toBe(false);
  });
});
