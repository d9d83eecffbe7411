import { h } from 'preact';
import { Field, Layout, PageFrame, PostForm, PublicLayout, renderPage, STYLESHEET } from './index';

const frame: PageFrame = {
  accountName: 'Shop',
  environment: 'production',
  csrfToken: 'tok-1',
  timeZone: 'UTC',
};

describe('the page kit', () => {
  it('renders a full document: doctype, language, character set, viewport, the stylesheet', () => {
    const html = renderPage(h(PublicLayout, { title: 'Sign in' }));
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/>')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain('<title>Sign in · Payouts</title>');
    expect(html).toContain('<link rel="stylesheet" href="/dashboard/assets/dashboard.css"/>');
  });

  it('refuses a page that is not rooted in a Document', () => {
    expect(() => renderPage(h('p', null, 'hello'))).toThrow(TypeError);
  });

  it('escapes text and attribute values', () => {
    const html = renderPage(
      h(Layout, {
        title: '<b>',
        current: 'home',
        frame: { ...frame, accountName: '"><script>x</script>' },
        path: '/dashboard',
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&quot;>&lt;script>x&lt;/script>');
  });

  it('puts the CSRF token in every form it makes', () => {
    const html = renderPage(h(Layout, { title: 'Home', current: 'home', frame, path: '/dashboard' }));
    const forms = html.match(/<form /g) ?? [];
    const tokens = html.match(/<input type="hidden" name="_csrf" value="tok-1"\/>/g) ?? [];
    expect(forms.length).toBe(2);
    expect(tokens.length).toBe(forms.length);
    const alone = renderPage(
      h(PublicLayout, { title: 'x' }, h(PostForm, { action: '/dashboard/x', csrfToken: 'tok-2' })),
    );
    expect(alone).toContain(
      '<form method="post" action="/dashboard/x"><input type="hidden" name="_csrf" value="tok-2"/></form>',
    );
  });

  it('labels every field and ties its hint and error to the input', () => {
    const html = renderPage(
      h(
        PublicLayout,
        { title: 'x' },
        h(Field, { name: 'amount', label: 'Amount', hint: 'In USD', error: 'Too much' }),
      ),
    );
    expect(html).toContain('<label for="field-amount">Amount</label>');
    expect(html).toContain('id="field-amount" name="amount" type="text"');
    expect(html).toContain('aria-describedby="field-amount-hint field-amount-error"');
    expect(html).toContain('aria-invalid="true"');
  });

  it('marks the sandbox as test data and production not', () => {
    const sandbox = renderPage(
      h(Layout, {
        title: 'Home',
        current: 'home',
        frame: { ...frame, environment: 'sandbox' },
        path: '/dashboard',
      }),
    );
    expect(sandbox).toContain('<body class="sandbox">');
    expect(sandbox).toContain('Sandbox: test data.');
    const production = renderPage(h(Layout, { title: 'Home', current: 'home', frame, path: '/dashboard' }));
    expect(production).toContain('<body>');
    expect(production).not.toContain('test data');
  });

  it('has no inline style or script anywhere (the CSP allows neither)', () => {
    const html = renderPage(
      h(Layout, { title: 'Home', current: 'balance', frame, path: '/dashboard/balance' }),
    );
    expect(html).not.toMatch(/ style=|<style|<script/);
    expect(html).toContain('<a href="/dashboard/balance" aria-current="page">Balance</a>');
    expect(STYLESHEET).toContain('.skip-link:focus');
  });
});
