import { Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { ApiError } from '@payouts/http';
import { APP_CONFIG } from '@payouts/platform';
import { sendCheckoutTestWebhook } from '@payouts/webhooks';
import { ACCOUNTS } from '../../gateway.tokens';
import { ApiErrors } from '../../openapi/decorators';
import { TestWebhookResponse } from '../checkout.schemas';
import { CheckoutCaller } from '../checkout-principal';
import type { CheckoutPrincipal } from '../checkout-principal';
import { bothEnvironments, CheckoutRoutes } from '../checkout-routes';

/**
 * Test Webhook (docs/design.md#test-webhook): one signed POST of the sample body to the
 * environment's checkout webhook URL, with the caller's API secret, and its answer: 200 with the
 * body sent when the receiver answered 2xx, so a correct answer means the URL will get real ones.
 */
@CheckoutRoutes()
export class TestWebhookRoute {
  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(bothEnvironments('payment/test_webhook'))
  @ApiOperation({
    summary: 'Test Webhook',
    description:
      'Posts `{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}` signed with this key\'s API secret to the checkout webhook URL, once.',
  })
  @ApiOkResponse({
    description: 'The receiver answered 2xx; this is the body it was sent',
    type: TestWebhookResponse,
  })
  @ApiErrors({ 409: ['webhook_not_configured'], 502: ['webhook_delivery_failed'] })
  async test(@CheckoutCaller() caller: CheckoutPrincipal): Promise<unknown> {
    const url = caller.credential.account.checkoutWebhookUrl;
    if (!url) {
      throw new ApiError(
        409,
        'webhook_not_configured',
        `no checkout webhook URL is set for ${caller.environment}: PUT /dashboard/checkout-webhook`,
      );
    }
    const secret = await this.accounts.checkoutSecret(caller.credentialId);
    if (!secret) throw new ApiError(409, 'webhook_not_configured', 'this key has no API secret to sign with');
    const sent = await sendCheckoutTestWebhook(url, secret, {
      policy: { allowInsecure: this.config.webhooks.allowInsecureTargets },
      proxyUrl: this.config.webhooks.proxyUrl,
    });
    if (!sent.delivered) {
      const status = sent.status === undefined ? '' : ` (it answered ${sent.status})`;
      throw new ApiError(
        502,
        'webhook_delivery_failed',
        `the webhook URL did not accept the test${status}: ${sent.reason}`,
      );
    }
    return JSON.parse(sent.body) as unknown;
  }
}
