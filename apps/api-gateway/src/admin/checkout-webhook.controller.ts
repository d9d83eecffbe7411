import { Body, Controller, Inject, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { apiValidationPipe } from '@payouts/http';
import { APP_CONFIG } from '@payouts/platform';
import { ACCOUNTS } from '../gateway.tokens';
import { ApiErrors } from '../openapi/decorators';
import { AccountSettings } from './account-settings';
import { AdminAccount, AdminGuard } from './admin-auth';
import { PayoutWebhookEndpointDto } from './payout-webhook.dto';
import { ENVIRONMENTS } from '@payouts/domain';

class CheckoutWebhookResponse {
  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  environment!: string;

  @ApiProperty({ type: String, format: 'uri' })
  url!: string;
}

/**
 * The checkout webhook URL of one environment (docs/design.md#checkout-webhook). New orders capture it as
 * their `hook_url`; their webhooks are signed with the creating key's API secret, so saving shows
 * no secret. The URL is checked as the payout webhook's is (https, public addresses after DNS),
 * and the dispatcher checks it again before every attempt. The rule is in AccountSettings, shared
 * with the dashboard's Settings page.
 */
@Controller('dashboard/checkout-webhook')
@UseGuards(AdminGuard)
@ApiTags('Dashboard')
@ApiBearerAuth('admin_token')
@ApiErrors({ 401: [] })
export class CheckoutWebhookController {
  private readonly settings: AccountSettings;

  constructor(
    @Inject(ACCOUNTS) accounts: AccountsRepository,
    commands: CommandBus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = new AccountSettings(accounts, commands, config);
  }

  @Put()
  @ApiOperation({ summary: 'Set the checkout webhook URL of one environment (new orders use it)' })
  @ApiOkResponse({ type: CheckoutWebhookResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async save(@AdminAccount() accountId: string, @Body(apiValidationPipe()) body: PayoutWebhookEndpointDto) {
    const url = await this.settings.setCheckoutWebhookUrl(accountId, body);
    return { environment: body.environment, url };
  }
}
