/**
 * Accounts for bench:api, set up as a merchant's would be: created, approved and funded through
 * the operator API, payouts enabled and a payout credential made through the dashboard API.
 */
export async function setUpAccounts(
  base: string,
  operatorToken: string,
  count: number,
  funds = '100000000.00',
): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 1) {
    tokens.push(await setUpAccount(base, operatorToken, `bench ${i}`, funds));
  }
  return tokens;
}

/** One funded account with payouts enabled in the sandbox: the bearer token of its payout credential. */
export async function setUpAccount(
  base: string,
  operatorToken: string,
  name: string,
  funds: string,
): Promise<string> {
  const json = async (method: string, path: string, token: string, body: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, string>>;
  };
  const account = await json('POST', '/operator/accounts', operatorToken, { name, region: 'US' });
  const id = account.account_id!;
  await json('POST', `/operator/accounts/${id}/payouts-approval`, operatorToken, { approved: true });
  await json('POST', `/operator/accounts/${id}/funds`, operatorToken, {
    environment: 'sandbox',
    amount: funds,
  });
  await json('PUT', '/dashboard/payouts-enabled', account.admin_token!, {
    environment: 'sandbox',
    enabled: true,
  });
  const credential = await json('POST', '/dashboard/credentials', account.admin_token!, {
    kind: 'payout',
    environment: 'sandbox',
  });
  return credential.token!;
}

/**
 * Funds for the one account every create-hot (and overload) request uses, so that it never runs
 * out however fast the server goes: `hotSeconds` of creates at CREATES_PER_SECOND_BOUND, each
 * reserving COST_PER_CREATE, and never less than the other accounts get.
 */
export function hotAccountFunds(hotSeconds: number): string {
  const needed = Math.ceil(hotSeconds * CREATES_PER_SECOND_BOUND * COST_PER_CREATE);
  return `${Math.max(needed, 100_000_000)}.00`;
}

/** Far above what one machine serves (about 2,000 creates/s on two cores). */
const CREATES_PER_SECOND_BOUND = 20_000;
/** The 1.00 every scenario pays out (createPayoutBody) plus the default fee, 0.50 (DEFAULT_FEE_PER_PAYOUT). */
const COST_PER_CREATE = 1.5;
