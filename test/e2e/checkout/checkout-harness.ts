import { Call, OPERATOR_TOKEN } from '../api/gateway-harness';

export interface Shop {
  accountId: string;
  adminToken: string;
  /** Sandbox checkout key (`ck_test_…`) and its API secret. */
  key: string;
  secret: string;
  credentialId: string;
}

/** A sandbox account in `region` with a checkout key; optionally its checkout webhook URL. */
export async function checkoutShop(
  call: Call,
  options: {
    region?: string;
    name?: string;
    webhookUrl?: string;
    environment?: 'sandbox' | 'production';
  } = {},
): Promise<Shop> {
  const environment = options.environment ?? 'sandbox';
  const created = await call('POST', '/operator/accounts', {
    token: OPERATOR_TOKEN,
    body: { name: options.name ?? 'Corner Shop', region: options.region ?? 'US' },
  });
  if (created.status !== 201) throw new Error(`account: ${created.status}`);
  const { account_id: accountId, admin_token: adminToken } = created.body;
  if (options.webhookUrl) {
    const saved = await call('PUT', '/dashboard/checkout-webhook', {
      token: adminToken,
      body: { environment, url: options.webhookUrl },
    });
    if (saved.status !== 200) throw new Error(`webhook: ${saved.status} ${JSON.stringify(saved.body)}`);
  }
  const credential = await call('POST', '/dashboard/credentials', {
    token: adminToken,
    body: { kind: 'checkout', environment },
  });
  if (credential.status !== 201) throw new Error(`credential: ${credential.status}`);
  return {
    accountId,
    adminToken,
    key: credential.body.token,
    secret: credential.body.secret,
    credentialId: credential.body.credential_id,
  };
}

export const orderBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 10.5,
  currency: 'USD',
  customer: 'payer@example.com',
  product: 'Blue mug',
  ...overrides,
});

/** Rows of every checkout table an order could have written, for "nothing was created" checks. */
export const CHECKOUT_PATHS = [
  '/sandbox/card',
  '/sandbox/payment/mobilewallet',
  '/sandbox/payment/cash',
  '/sandbox/payment/onlinewallet',
  '/sandbox/payment/order',
] as const;
