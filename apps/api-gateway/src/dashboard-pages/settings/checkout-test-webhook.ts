import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import type { Environment } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import { deliverCheckoutTest } from '../../checkout/test-webhook/checkout-test-delivery';

/**
 * The Settings page's `Send test webhook`: the delivery `GET /payment/test_webhook` makes
 * (deliverCheckoutTest, with its refusals), signed with the API secret of a checkout credential
 * the administrator picks (the API signs with the caller's own): 404 for a credential that is not
 * the account's, 400 for one that cannot sign in this environment.
 */
export async function sendDashboardTestWebhook(
  accounts: AccountsRepository,
  config: AppConfig,
  request: {
    accountId: string;
    environment: Environment;
    credentialId: string | undefined;
    webhookUrl: string | null;
  },
): Promise<void> {
  const credential = (await accounts.listCredentials(request.accountId)).find(
    (c) => c.credentialId === request.credentialId,
  );
  if (!credential) throw new ApiError(404, 'not_found', 'no such credential', 'signing_credential_id');
  if (
    credential.kind !== 'checkout' ||
    credential.environment !== request.environment ||
    credential.revokedAt
  ) {
    throw new ApiError(
      400,
      'invalid_request',
      `sign with an active checkout credential of ${request.environment}`,
      'signing_credential_id',
    );
  }
  await deliverCheckoutTest(accounts, config, {
    environment: request.environment,
    url: request.webhookUrl,
    credentialId: credential.credentialId,
    howToSetUrl: 'save one first',
    urlParam: 'url',
  });
}
