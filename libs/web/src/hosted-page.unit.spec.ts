import Fastify, { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { h } from 'preact';
import {
  allowFormAnswersTo,
  ErrorSummary,
  formFields,
  formTokenIsValid,
  HostedField,
  HostedPage,
  HostedPostForm,
  isCsrfRefusal,
  MalformedFormError,
  parseHostedForm,
  registerHostedPageScope,
  removeFormParser,
  renderPage,
  sendPage,
  useSessionCsrfSecret,
} from './index';
import { render } from 'preact-render-to-string';

describe('the hosted pages of the kit', () => {
  it('render a whole document with the page’s own stylesheet, site name and test-data note', () => {
    const html = renderPage(
      h(HostedPage, {
        title: 'Pay <now>',
        site: 'Checkout',
        stylesheet: '/assets/x.css',
        testDataNote: 'Test',
      }),
    );
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/>')).toBe(true);
    expect(html).toContain('<meta name="referrer" content="no-referrer"/>');
    expect(html).toContain('<title>Pay &lt;now> · Checkout</title>');
    expect(html).toContain('<link rel="stylesheet" href="/assets/x.css"/>');
    expect(html).toContain('<p class="sandbox" role="note">Test</p><main id="main"><h1>Pay &lt;now></h1>');
    const production = renderPage(h(HostedPage, { title: 'Pay', site: 'Checkout', stylesheet: '/x.css' }));
    expect(production).not.toContain('role="note"');
  });

  it('put the CSRF token in the field csrf_token of every POST form', () => {
    const html = render(h(HostedPostForm, { action: '/go', csrfToken: 't"1', noValidate: true }));
    expect(html).toBe(
      '<form method="post" action="/go" novalidate><input type="hidden" name="csrf_token" value="t&quot;1"/></form>',
    );
  });

  it('label every field by its name, with its hint and error read with it', () => {
    const html = render(
      h(HostedField, { name: 'code', label: 'Code', hint: '6 digits', error: 'Wrong', inputMode: 'numeric' }),
    );
    expect(html).toBe(
      '<div class="field invalid"><label for="code">Code</label><p class="hint" id="code-hint">6 digits</p>' +
        '<p class="field-error" id="code-error">Wrong</p><input id="code" name="code" type="text" value ' +
        'inputmode="numeric" aria-describedby="code-hint code-error" aria-invalid="true"/></div>',
    );
    expect(render(h(HostedField, { name: 'a', label: 'A', value: '<x>' }))).toContain('value="&lt;x>"');
  });

  it('sum up the errors as links to their fields, and nothing without errors', () => {
    expect(render(h(ErrorSummary, { errors: {} }))).toBe('');
    expect(render(h(ErrorSummary, { errors: { expiry: 'Enter the expiry' } }))).toBe(
      '<div class="errors" role="alert" tabindex="-1"><p>Please check the following:</p>' +
        '<ul><li><a href="#expiry">Enter the expiry</a></li></ul></div>',
    );
  });
});

describe('a hosted page form body', () => {
  it('is flat text fields', () => {
    expect({ ...parseHostedForm('a=1&b=x+y&c=%C3%A9') }).toEqual({ a: '1', b: 'x y', c: 'é' });
  });

  it('is refused (400) with a name twice or more than 20 fields', () => {
    expect(() => parseHostedForm('a=1&a=2')).toThrow(MalformedFormError);
    const many = Array.from({ length: 21 }, (_, i) => `f${i}=1`).join('&');
    expect(() => parseHostedForm(many)).toThrow(MalformedFormError);
    expect(new MalformedFormError().statusCode).toBe(400);
  });

  it('keeps any name as a field, never as the object’s prototype', () => {
    const fields = parseHostedForm('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(fields.__proto__).toBe('x');
  });

  it('is read as its text fields only', () => {
    expect(formFields({ a: 'x', b: 7, c: { d: 'e' }, f: ['g'] })).toEqual({ a: 'x' });
    expect(formFields(null)).toEqual({});
    expect(formFields(['a'])).toEqual({});
  });
});

/** An app with one hosted page scope: GET /page/:id renders a form, POST /page/:id checks it. */
async function appWith(csrfSecret: { cookie: string } | 'session'): Promise<{
  app: FastifyInstance;
  appErrors: unknown[];
}> {
  const app = Fastify();
  const appErrors: unknown[] = [];
  app.setErrorHandler((error, _request, reply) => {
    appErrors.push(error);
    void reply.code(499).send({ app: true });
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', (_request, _payload, done) => done(null, {}));
  removeFormParser(app);
  app.post('/api', async () => ({ ok: true }));
  await app.register(async (scope) => {
    await registerHostedPageScope(scope, {
      https: true,
      csrfSecret,
      errorPage: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
        void reply
          .code(isCsrfRefusal(error) ? 403 : 500)
          .type('text/plain')
          .send(`page: ${error.message}`);
      },
    });
    const withSecret = (request: FastifyRequest) => {
      if (csrfSecret === 'session') useSessionCsrfSecret(request, String(request.headers['x-secret']));
    };
    scope.get<{ Params: { id: string } }>('/page/:id', (request, reply) => {
      withSecret(request);
      allowFormAnswersTo(reply, request.params.id === 'shop' ? 'https://shop.example.com' : null);
      const csrfToken = reply.generateCsrf({ path: `/page/${request.params.id}` });
      return sendPage(
        reply,
        200,
        h(
          HostedPage,
          { title: 'Form', site: 'Test', stylesheet: '/x.css' },
          h(HostedPostForm, { action: '/', csrfToken }),
        ),
      );
    });
    scope.post('/page/:id', (request, reply) => {
      withSecret(request);
      if (!formTokenIsValid(request, reply)) return reply;
      return { fields: request.body };
    });
  });
  return { app, appErrors };
}

const tokenIn = (body: string) => /name="csrf_token" value="([^"]+)"/.exec(body)![1]!;
/** A form post to `url`, with these request headers besides the form's content type. */
const postForm = (
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });

describe('a hosted page scope', () => {
  it('sends the pages’ headers, with a merchant origin in form-action where a route allows it', async () => {
    const { app } = await appWith({ cookie: 'page_csrf' });
    const page = await app.inject('/page/1');
    expect(page.headers).toMatchObject({
      'content-security-policy':
        "default-src 'none';style-src 'self';img-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'strict-transport-security': 'max-age=31536000',
      'cache-control': 'no-store',
      'content-type': 'text/html; charset=utf-8',
    });
    const shop = await app.inject('/page/shop');
    expect(shop.headers['content-security-policy']).toContain("form-action 'self' https://shop.example.com;");
    await app.close();
  });

  it('keeps the CSRF secret in a cookie of the page’s path and takes only a token made from it', async () => {
    const { app } = await appWith({ cookie: 'page_csrf' });
    const page = await app.inject('/page/1');
    const setCookie = String(page.headers['set-cookie']);
    expect(setCookie).toMatch(/^page_csrf=[^;]+; Path=\/page\/1; HttpOnly; Secure; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0]!;
    const token = tokenIn(page.body);
    const posted = await postForm(app, '/page/1', { csrf_token: token, a: 'b' }, { cookie });
    expect([posted.statusCode, posted.json()]).toEqual([200, { fields: { csrf_token: token, a: 'b' } }]);
    for (const [what, headers, fields] of [
      ['no token', { cookie }, {}],
      ['a wrong token', { cookie }, { csrf_token: `${token}x` }],
      ['no cookie', {}, { csrf_token: token }],
    ] as const) {
      const refused = await postForm(app, '/page/1', fields, headers);
      expect({ what, status: refused.statusCode, body: refused.body }).toEqual({
        what,
        status: 403,
        body: expect.stringMatching(/^page: /),
      });
    }
    // Another page's secret: the cookie is not even sent there, and its token is not this one's.
    const other = await app.inject('/page/2');
    const otherCookie = String(other.headers['set-cookie']).split(';')[0]!;
    const borrowed = await postForm(app, '/page/2', { csrf_token: token }, { cookie: otherCookie });
    expect(borrowed.statusCode).toBe(403);
    await app.close();
  });

  it('takes the CSRF secret from the app’s session, with no cookie of its own', async () => {
    const { app } = await appWith('session');
    const page = await app.inject({ url: '/page/1', headers: { 'x-secret': 'secret-a' } });
    expect(page.headers['set-cookie']).toBeUndefined();
    const token = tokenIn(page.body);
    expect(token).not.toContain('secret-a');
    const post = (secret: string, csrf: string) =>
      postForm(app, '/page/1', { csrf_token: csrf }, { 'x-secret': secret });
    expect((await post('secret-a', token)).statusCode).toBe(200);
    expect((await post('secret-b', token)).statusCode).toBe(403);
    expect((await post('secret-a', 'secret-a')).statusCode).toBe(403);
    await app.close();
  });

  it('leaves what is refused before a route runs, and forms outside the scope, to the app', async () => {
    const { app, appErrors } = await appWith({ cookie: 'page_csrf' });
    const repeated = await app.inject({
      method: 'POST',
      url: '/page/1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1&a=2',
    });
    expect([repeated.statusCode, repeated.json()]).toEqual([499, { app: true }]);
    expect(appErrors[0]).toBeInstanceOf(MalformedFormError);
    const api = await postForm(app, '/api', { a: '1' });
    expect(api.statusCode).toBe(499);
    expect((appErrors[1] as FastifyError).code).toBe('FST_ERR_CTP_INVALID_MEDIA_TYPE');
    await app.close();
  });
});
