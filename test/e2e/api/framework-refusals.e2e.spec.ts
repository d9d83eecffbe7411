import type { SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { SQL_CLIENT } from '@payouts/platform';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import { client, Gateway, merchant, Merchant, newKey, startGateway } from './gateway-harness';
import { httpRequest, RawAnswer, rawRequest } from './raw-http';

const CREATE = '/sandbox/api/payout/create';
const ORIGINS = '/dashboard/return-url-origins';
const JSON_TYPE = 'Content-Type: application/json';

/** A Create body as JSON text, with `extra` (raw JSON members) spliced in before the end. */
const createText = (reference: string, extra = '') =>
  `{"amount":"10.00","merchant_reference":"${reference}","delivery":"link",` +
  `"customer_email":"${reference}@example.com"${extra}}`;

/** `{"a":[[[...]]]}` with `depth` containers in all (the object counts as one). */
const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

/**
 * Every refusal the framework or the body parser makes, walked over a raw socket: each answers the
 * documented body (docs/design.md#error-body) with `Content-Type: application/json` and one `Request-Id`, and
 * none of them writes anything. Before, a header with a control character got Fastify's own body,
 * deep nesting answered 500, and invalid UTF-8, duplicate JSON keys, repeated headers and a foreign
 * charset were read as something the merchant did not send.
 */
describe('framework-level refusals over raw HTTP', () => {
  let gateway: Gateway;
  let shop: Merchant;
  let sql: SqlClient;

  beforeAll(async () => {
    gateway = await startGateway('pglite');
    shop = await merchant(client(gateway.url), '1000.00', { origins: ['https://shop.example.com'] });
    sql = gateway.app.get<SqlClient>(SQL_CLIENT);
  });
  afterAll(() => gateway.close());

  const payoutHeaders = () => [`Authorization: Bearer ${shop.token}`, `Idempotency-Key: ${newKey()}`];
  const adminHeaders = () => [`Authorization: Bearer ${shop.adminToken}`];

  /** What a refusal must leave as it was: events, stored idempotency keys, the merchant's payouts. */
  async function written() {
    const count = async (table: string) =>
      (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
    const listed = await client(gateway.url)('GET', '/sandbox/api/payout/list', { token: shop.token });
    return {
      events: await countEvents(new PostgresEventStore(sql)),
      keys: await count('idempotency_keys'),
      payouts: listed.body.total,
    };
  }

  function expectDocumentedRefusal(answer: RawAnswer, [status, code, message, param]: Refusal) {
    expect({ status: answer.status, body: answer.json }).toEqual({
      status,
      body: { error: { code, message: expect.stringMatching(message), ...(param ? { param } : {}) } },
    });
    expect(answer.headers.get('content-type')).toEqual([expect.stringMatching(/^application\/json/)]);
    expect(answer.headers.get('request-id')).toEqual([expect.stringMatching(/^req_[\w-]+$/)]);
  }

  /** A Create request with a fresh key, `Content-Type: application/json` unless `headers` say otherwise. */
  const create = (body: Buffer | string | undefined, headers = [JSON_TYPE]) =>
    httpRequest('POST', CREATE, [...payoutHeaders(), ...headers], body);

  /** Status, code, what the message says, and `param` when the refusal names one. */
  type Refusal = [status: number, code: string, message: RegExp, param?: string];
  const invalid = (message: RegExp, param?: string): Refusal => [400, 'invalid_request', message, param];
  const notJson: Refusal = [415, 'unsupported_media_type', /must be JSON/];
  const tooDeep = invalid(/more than 32 levels deep/);
  const cases: { name: string; request: () => Buffer; refusal: Refusal; endEarly?: boolean }[] = [
    // Item 5: what Node's HTTP parser refuses (clientError), then Fastify's and the router's refusals.
    {
      name: 'a header with a control character',
      request: () => httpRequest('GET', '/sandbox/api/payout/list', [...payoutHeaders(), 'X-Note: a\x01b']),
      refusal: invalid(/not valid HTTP\/1\.1: Invalid header value char/),
    },
    {
      name: 'a malformed request line',
      request: () => Buffer.from('BREW /pot HTTP/1.1\r\n\r\n'),
      refusal: invalid(/not valid HTTP\/1\.1/),
    },
    {
      name: 'headers larger than the server reads',
      request: () => httpRequest('GET', '/sandbox/api/payout/list', [`X-Big: ${'a'.repeat(20_000)}`]),
      refusal: [431, 'headers_too_large', /headers are larger than 16 KiB/],
    },
    {
      name: 'an unknown route',
      request: () => httpRequest('GET', '/sandbox/api/nothing-here', []),
      refusal: [404, 'not_found', /no such endpoint/],
    },
    {
      name: 'a body larger than 64 KiB',
      request: () => create(createText('big', `,"d":"${'x'.repeat(70_000)}"`)),
      refusal: [413, 'payload_too_large', /larger than 64 KiB/],
    },
    {
      name: 'a body that is not JSON',
      request: () => create('x', ['Content-Type: text/plain']),
      refusal: notJson,
    },
    {
      name: 'a body without a Content-Type',
      request: () => create(createText('untyped'), []),
      refusal: notJson,
    },
    { name: 'malformed JSON', request: () => create('{"amount":'), refusal: invalid(/not valid JSON/) },
    {
      name: 'an empty JSON body',
      request: () => create(undefined, [JSON_TYPE, 'Content-Length: 0']),
      refusal: invalid(/body is empty/),
    },
    {
      name: 'a body shorter than its Content-Length',
      request: () => create(createText('short'), [JSON_TYPE, 'Content-Length: 500']),
      refusal: invalid(/ended before the request was complete/),
      endEarly: true,
    },
    {
      name: 'bad percent-encoding in the path',
      request: () => httpRequest('GET', '/sandbox/api/payout/po_%E0%A4%A', payoutHeaders()),
      refusal: invalid(/request target is not valid/),
    },
    // Item 2: nesting is bounded where the body is parsed.
    {
      name: 'a Create body nested 2,000 levels deep',
      request: () => create(nested(2_000)),
      refusal: tooDeep,
    },
    { name: 'a Create body nested 33 levels deep', request: () => create(nested(33)), refusal: tooDeep },
    {
      name: 'return-url origins nested 2,000 levels deep',
      request: () =>
        httpRequest(
          'PUT',
          ORIGINS,
          [...adminHeaders(), JSON_TYPE],
          `{"environment":"sandbox","origins":${'['.repeat(2_000)}${']'.repeat(2_000)}}`,
        ),
      refusal: tooDeep,
    },
    // Item 4: nothing the merchant sent is read as something else.
    {
      name: 'invalid UTF-8 inside merchant_reference',
      // The reference "utf8-\xC3(\xFF": read leniently, it became "utf8-\uFFFD(\uFFFD".
      request: () =>
        create(
          Buffer.concat([
            Buffer.from('{"amount":"10.00","merchant_reference":"utf8-'),
            Buffer.from([0xc3, 0x28, 0xff]),
            Buffer.from('","delivery":"link","customer_email":"utf8@example.com"}'),
          ]),
        ),
      refusal: invalid(/not valid UTF-8/),
    },
    {
      name: 'a duplicate key in the body',
      request: () => create(`{"amount":"6000.00",${createText('dup-key').slice(1)}`),
      refusal: invalid(/"amount" more than once/, 'amount'),
    },
    {
      name: 'a duplicate key spelt with an escape',
      request: () => create(createText('dup-escaped', ',"\\u0061mount":"6000.00"')),
      refusal: invalid(/"amount" more than once/, 'amount'),
    },
    {
      name: 'a charset other than UTF-8',
      request: () => create(createText('latin1'), [`${JSON_TYPE}; charset=iso-8859-1`]),
      refusal: [415, 'unsupported_media_type', /in UTF-8/],
    },
    {
      name: 'two Idempotency-Key headers',
      request: () =>
        httpRequest(
          'POST',
          CREATE,
          [`Authorization: Bearer ${shop.token}`, 'Idempotency-Key: k1', 'Idempotency-Key: k2', JSON_TYPE],
          createText('two-keys'),
        ),
      refusal: invalid(/Idempotency-Key header is sent more than once/, 'Idempotency-Key'),
    },
    {
      name: 'two Authorization headers',
      request: () =>
        create(createText('two-credentials'), ['Authorization: Bearer pk_test_other', JSON_TYPE]),
      refusal: invalid(/Authorization header is sent more than once/, 'Authorization'),
    },
    {
      name: 'two Content-Type headers',
      request: () => create(createText('two-types'), [JSON_TYPE, 'Content-Type: text/plain']),
      refusal: invalid(/Content-Type header is sent more than once/, 'Content-Type'),
    },
  ];

  it.each(cases)(
    'refuses $name in the documented body with a Request-Id, and writes nothing',
    async ({ request, refusal, endEarly }) => {
      const before = await written();
      expectDocumentedRefusal(await rawRequest(gateway.url, request(), { endEarly }), refusal);
      expect(await written()).toEqual(before);
    },
  );

  it('answers a method a known path does not take with 405 and the methods it does in Allow', async () => {
    const answer = await rawRequest(gateway.url, httpRequest('GET', ORIGINS, adminHeaders()));
    expectDocumentedRefusal(answer, [
      405,
      'method_not_allowed',
      /GET is not allowed on this path; it takes PUT/,
    ]);
    expect(answer.headers.get('allow')).toEqual(['PUT']);
  });

  it('accepts a declared charset of UTF-8 in any case, quoted, and a leading byte order mark', async () => {
    for (const [reference, contentType, bom] of [
      ['charset-plain', `${JSON_TYPE}; charset=utf-8`, []],
      ['charset-quoted', `${JSON_TYPE};charset="UTF-8"`, []],
      ['with-bom', JSON_TYPE, [0xef, 0xbb, 0xbf]],
    ] as const) {
      const answer = await rawRequest(
        gateway.url,
        create(Buffer.concat([Buffer.from(bom), Buffer.from(createText(reference))]), [contentType]),
      );
      expect([answer.status, answer.json]).toEqual([
        201,
        expect.objectContaining({ status: 'awaiting_choice' }),
      ]);
      const path = `/sandbox/api/payout/list?merchant_reference=${reference}`;
      expect((await client(gateway.url)('GET', path, { token: shop.token })).body.total).toBe(1);
    }
  });
});
