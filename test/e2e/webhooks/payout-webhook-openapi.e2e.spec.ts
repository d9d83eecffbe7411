import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { TestReceiver, eventually } from '../../../libs/webhooks/src/testing/receiver';
import { payExistingPayout } from '../../../libs/webhooks/src/testing/paid-payouts';
import { Answer } from '../api/gateway-harness';
import { merchantWithPayout, startWebhookGateway, WebhookGateway } from './webhook-harness';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is plain JSON, read as such */

/** The payout webhook endpoints' real answers, each checked against the document the app serves. */
describe('the payout webhook endpoints in the OpenAPI document', () => {
  let gateway: WebhookGateway;
  let receiver: TestReceiver;
  let document: any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  beforeAll(async () => {
    gateway = await startWebhookGateway({ env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    receiver = await TestReceiver.start();
    document = JSON.parse(
      JSON.stringify(await (await fetch(`${gateway.url}/openapi.json`)).json()).replaceAll(
        '#/components/schemas/',
        'openapi#/$defs/',
      ),
    );
    ajv.addSchema({ $id: 'openapi', $defs: document.components.schemas });
  });
  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
  });

  const checked = async (
    method: string,
    path: string,
    template: string,
    options: any = {},
  ): Promise<Answer> => {
    const answer = await gateway.call(method, path, options);
    const operation = document.paths[template]?.[method.toLowerCase()];
    expect({ operation: `${method} ${template}`, documented: Boolean(operation) }).toEqual({
      operation: `${method} ${template}`,
      documented: true,
    });
    const schema = operation.responses[String(answer.status)]?.content?.['application/json']?.schema;
    expect({ status: `${method} ${template} ${answer.status}`, documented: Boolean(schema) }).toEqual({
      status: `${method} ${template} ${answer.status}`,
      documented: true,
    });
    const validate = ajv.compile(schema);
    if (!validate(answer.body)) {
      throw new Error(
        `${method} ${path}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body)}`,
      );
    }
    expect(operation.security).toEqual([{ admin_token: [] }]);
    return answer;
  };

  it('documents every answer of every payout webhook endpoint, errors included', async () => {
    const shop = await merchantWithPayout(gateway.call, 'order-openapi-wh');
    const token = shop.adminToken;
    const root = '/dashboard/payout-webhook';
    await checked('PUT', root, root, { token, body: { environment: 'sandbox', url: 'ftp://x' } });
    await checked('PUT', root, root, {
      token: 'adm_nope',
      body: { environment: 'sandbox', url: receiver.url() },
    });
    await checked('GET', `${root}?environment=sandbox`, root, { token });
    await checked('POST', `${root}/test`, `${root}/test`, { token, body: { environment: 'sandbox' } });
    const sandbox = { environment: 'sandbox' };
    await checked('POST', `${root}/rotate-secret`, `${root}/rotate-secret`, { token, body: sandbox });
    await checked('POST', `${root}/enable`, `${root}/enable`, { token, body: sandbox });
    await checked('POST', `${root}/enable`, `${root}/enable`, { token, body: { environment: 'moon' } });
    await checked('PUT', root, root, { token, body: { environment: 'sandbox', url: receiver.url() } });
    await checked('GET', `${root}?environment=sandbox`, root, { token });
    const rotated = await checked('POST', `${root}/rotate-secret`, `${root}/rotate-secret`, {
      token,
      body: sandbox,
    });
    expect(rotated.status).toBe(200);
    const shown = await checked('GET', `${root}?environment=sandbox`, root, { token });
    expect(shown.body.previous_secret_expires_at).toBe(rotated.body.previous_secret_expires_at);
    const enabled = await checked('POST', `${root}/enable`, `${root}/enable`, { token, body: sandbox });
    expect(enabled.status).toBe(200);
    const test = await checked('POST', `${root}/test`, `${root}/test`, {
      token,
      body: { environment: 'sandbox' },
    });
    receiver.answer = () => ({ status: 500, body: 'no' });
    await payExistingPayout(gateway.store, shop.payoutId);
    await receiver.waitForRequests(2);
    const list = await eventually(async () => {
      const answer = await gateway.call('GET', `${root}/events?environment=sandbox`, { token });
      return answer.body.data.every((e: any) => e.deliveries[0]?.attempts.length === 1) &&
        answer.body.total === 2
        ? answer
        : undefined;
    });
    expect(list.body.total).toBe(2);
    // Both signatures of the overlap, and a description that tells the receiver to accept either.
    expect(receiver.received[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const rotate = document.paths[`${root}/rotate-secret`].post;
    expect(rotate.description).toContain('a receiver accepts if any `v1` matches');
    expect(rotate.responses['409'].content['application/json'].schema).toBeDefined();
    await checked('GET', `${root}/events?environment=sandbox&limit=5`, `${root}/events`, { token });
    await checked('GET', `${root}/events?environment=nowhere`, `${root}/events`, { token });
    await checked('GET', `${root}/events/${test.body.event_id}`, `${root}/events/{event_id}`, { token });
    await checked('GET', `${root}/events/evt_missing00`, `${root}/events/{event_id}`, { token });
    await checked('POST', `${root}/events/${test.body.event_id}/resend`, `${root}/events/{event_id}/resend`, {
      token,
    });
    await checked('POST', `${root}/events/${test.body.event_id}/resend`, `${root}/events/{event_id}/resend`, {
      token,
    });
    await checked('DELETE', `${root}?environment=sandbox`, root, { token });
    await checked('POST', `${root}/test`, `${root}/test`, { token, body: { environment: 'sandbox' } });
  });
});
