/** What the shop needs: where the service is, its credentials, and where to keep its records. */
export interface ShopConfig {
  /** The environment's base address: `http://127.0.0.1:3000/sandbox` for a local sandbox. */
  serviceUrl: string;
  /** Checkout API key (`ck_test_…`) for creating orders. */
  checkoutApiKey: string;
  /** Its API secret (`cks_…`): it signs the checkout webhooks of the orders the key created. */
  checkoutApiSecret: string;
  /** Payout credential (`pk_test_…`) with `payouts:read` and `payouts:write`. */
  payoutToken: string;
  /** The payout webhook's signing secret (`whsec_…`), shown once when its URL was saved. */
  payoutWebhookSecret: string;
  /** 0 for any free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Folder of the shop's records (shop.json). */
  dataDir: string;
  /** The address customers' browsers use for the shop (the checkout page sends them back there); default the one it listens on. */
  publicUrl?: string;
  /** Default console.log. */
  log?: (line: string) => void;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set (see examples/shop/README.md)`);
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv): ShopConfig {
  return {
    serviceUrl: required(env, 'SERVICE_URL'),
    checkoutApiKey: required(env, 'CHECKOUT_API_KEY'),
    checkoutApiSecret: required(env, 'CHECKOUT_API_SECRET'),
    payoutToken: required(env, 'PAYOUT_TOKEN'),
    payoutWebhookSecret: required(env, 'PAYOUT_WEBHOOK_SECRET'),
    port: Number(env.PORT ?? 8080),
    host: env.HOST,
    dataDir: env.DATA_DIR ?? './.data',
    publicUrl: env.PUBLIC_URL,
  };
}
