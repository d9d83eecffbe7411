import { parseTargetUrl, ResolveHost, resolveTarget, TargetRefusedError } from './target-policy';

const strict = { allowInsecure: false };
const insecure = { allowInsecure: true };

/** A resolver of our own: these are names, not our DNS, and the tests need them to answer at will. */
const names =
  (table: Record<string, string[]>): ResolveHost =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function refusal(promise: Promise<unknown>): Promise<TargetRefusedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TargetRefusedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the webhook target checks', () => {
  it('accepts an https URL whose name resolves only to public addresses, and picks the first', async () => {
    const target = await resolveTarget(
      'https://hooks.example.com:8443/payouts?x=1',
      strict,
      names({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] }),
    );
    expect(target).toMatchObject({
      host: 'hooks.example.com',
      port: 8443,
      address: '93.184.216.34',
      family: 4,
    });
    expect(target.url.href).toBe('https://hooks.example.com:8443/payouts?x=1');
  });

  it('accepts a public IP literal without asking DNS', async () => {
    const target = await resolveTarget('https://93.184.216.34/hook', strict, names({}));
    expect(target).toMatchObject({ host: '93.184.216.34', port: 443, address: '93.184.216.34' });
  });

  it.each([
    ['http://hooks.example.com/x', 'insecure_scheme'],
    ['ftp://hooks.example.com/x', 'insecure_scheme'],
    ['javascript:alert(1)', 'insecure_scheme'],
    ['https://user:pass@hooks.example.com/x', 'credentials_in_url'],
    ['https://user@hooks.example.com/x', 'credentials_in_url'],
    ['not a url', 'invalid_url'],
    ['/relative/path', 'invalid_url'],
    ['', 'invalid_url'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'invalid_url'],
  ])('refuses %s before any lookup (%s)', async (url, code) => {
    expect((await refusal(resolveTarget(url, strict, names({})))).code).toBe(code);
  });

  it.each([
    'https://127.0.0.1/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://017700000001/',
    'https://127.1/',
    'https://0x7f.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://0/',
    'https://10.1.2.3/',
    'https://167772161/',
    'https://0xa9fea9fe/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[2002:a9fe:a9fe::]/',
    'https://[fe80::1]/',
  ])('refuses the blocked literal %s by its address', async (url) => {
    const error = await refusal(resolveTarget(url, strict, names({})));
    expect(error.code).toBe('blocked_address');
    expect(() => parseTargetUrl(url, strict)).toThrow(TargetRefusedError);
  });

  it('refuses a name when any of its addresses is not public, whichever a client would pick', async () => {
    const error = await refusal(
      resolveTarget(
        'https://mixed.example.com/',
        strict,
        names({ 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] }),
      ),
    );
    expect(error.code).toBe('blocked_address');
    expect(error.message).toBe('mixed.example.com does not resolve to a public address');
    // For the service's own logs only: what the name resolved to, and why that was refused.
    expect(error.detail).toBe('mixed.example.com resolves to 10.0.0.7: 10.0.0.0/8 (private)');
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    const missing = await refusal(resolveTarget('https://nowhere.example/', strict, names({})));
    expect(missing.code).toBe('unresolvable_host');
    expect(missing.message).toBe('nowhere.example does not resolve to a public address');
    expect(missing.detail).toBe('nowhere.example does not resolve (ENOTFOUND)');
    expect(
      (await refusal(resolveTarget('https://empty.example/', strict, names({ 'empty.example': [] })))).code,
    ).toBe('unresolvable_host');
  });

  // The refusal is shown to any dashboard user (and kept in the delivery log): echoing what a
  // name resolved to would make the URL form a DNS look-up tool for the service's own network.
  it.each([
    ['https://localhost/hook', { localhost: ['127.0.0.1', '::1'] }],
    ['https://db.internal/hook', { 'db.internal': ['10.20.30.40'] }],
    ['https://metadata.internal/hook', { 'metadata.internal': ['169.254.169.254'] }],
    ['https://v6.internal/hook', { 'v6.internal': ['fd00::1234'] }],
    ['https://mixed.example.com/hook', { 'mixed.example.com': ['93.184.216.34', '192.168.1.20'] }],
    [
      'https://many.example.com/hook',
      { 'many.example.com': Array.from({ length: 40 }, (_, i) => `10.0.0.${i}`) },
    ],
    ['https://nowhere.internal/hook', {}],
  ])('says of %s only that it does not resolve to a public address', async (url, table) => {
    const error = await refusal(resolveTarget(url, strict, names(table)));
    const host = new URL(url).hostname;
    expect(error.message).toBe(`${host} does not resolve to a public address`);
    expect(error.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f:]+|ENOTFOUND|private|loopback/i);
  });

  it('with insecure targets allowed (development and tests), accepts http and loopback, nothing else', async () => {
    const local = names({ localhost: ['127.0.0.1', '::1'] });
    await expect(resolveTarget('http://127.0.0.1:8080/hook', insecure, local)).resolves.toMatchObject({
      address: '127.0.0.1',
      port: 8080,
    });
    await expect(resolveTarget('http://localhost:8080/hook', insecure, local)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
    await expect(resolveTarget('http://[::1]:8080/hook', insecure, local)).resolves.toMatchObject({
      address: '::1',
      family: 6,
    });
    for (const url of [
      'http://10.0.0.1/',
      'http://169.254.169.254/',
      'http://[fd00::1]/',
      'ftp://127.0.0.1/',
    ]) {
      await expect(resolveTarget(url, insecure, local)).rejects.toBeInstanceOf(TargetRefusedError);
    }
  });
});
