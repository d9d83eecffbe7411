import { Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { ACCOUNTS } from '../../gateway.tokens';
import { ApiErrors } from '../../openapi/decorators';
import { TestWebhookResponse } from '../checkout.schemas';
import { CheckoutCaller } from '../checkout-principal';
import type { CheckoutPrincipal } from '../checkout-principal';
import { bothEnvironments, CheckoutRoutes } from '../checkout-routes';
import { deliverCheckoutTest } from './checkout-test-delivery';

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
    return deliverCheckoutTest(this.accounts, this.config, {
      environment: caller.environment,
      url: caller.credential.account.checkoutWebhookUrl,
      credentialId: caller.credentialId,
      howToSetUrl: 'PUT /dashboard/checkout-webhook',
    });
  }
}
