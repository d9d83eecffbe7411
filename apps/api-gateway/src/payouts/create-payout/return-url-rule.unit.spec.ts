import { isAcceptedReturnUrl, RETURN_URL_OPTIONS } from './return-url-rule';

describe('the return_url rule shared by Create Payout and origin registration', () => {
  it.each([
    ['https://shop.example.com/back'],
    ['https://shop.example.com/'],
    ['http://localhost:3000/'],
    ['http://127.0.0.1:3000/'],
    ['https://[2001:db8::1]/'],
    ['https://xn--bcher-kva.example/'],
    ['https://shop.example.com:8443/'],
  ])('accepts %s', (url) => {
    expect(isAcceptedReturnUrl(url)).toBe(true);
  });

  it.each([
    ['https://shop_name.example.com/'],
    ['https://shop.example.com./'],
    ['ftp://shop.example.com/'],
    ['shop.example.com/back'],
  ])('refuses %s', (url) => {
    expect(isAcceptedReturnUrl(url)).toBe(false);
  });

  it('leaves the shared options as they were (validator.js writes its defaults into what it is given)', () => {
    const before = JSON.stringify(RETURN_URL_OPTIONS);
    isAcceptedReturnUrl('https://shop.example.com/');
    expect(JSON.stringify(RETURN_URL_OPTIONS)).toBe(before);
  });
});
