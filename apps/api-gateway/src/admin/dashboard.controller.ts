import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { apiValidationPipe } from '@payouts/http';
import { APP_CONFIG } from '@payouts/platform';
import { RetainedTargetResponse } from '../openapi/funds-admin.schemas';
import { RetainedTargetDto } from './funds.dto';
import { ACCOUNTS } from '../gateway.tokens';
import { AdminAccount, AdminGuard } from './admin-auth';
import {
  CredentialListResponse,
  IssuedCredentialResponse,
  PayoutsEnabledResponse,
  ReturnUrlOriginsResponse,
  RevokedCredentialResponse,
} from '../openapi/admin.schemas';
import { ApiErrors } from '../openapi/decorators';
import { AccountSettings } from './account-settings';
import { IssueCredentialDto, PayoutsEnabledDto, ReturnUrlOriginsDto } from './admin.dto';

/**
 * The account administrator's API (docs/design.md#operator-and-dashboard), authenticated by the
 * admin token. The rules beyond the DTOs' are in AccountSettings, shared with the dashboard's
 * Settings page.
 */
@Controller('dashboard')
@UseGuards(AdminGuard)
@ApiTags('Dashboard')
@ApiBearerAuth('admin_token')
@ApiErrors({ 401: [] })
export class DashboardController {
  private readonly settings: AccountSettings;

  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    commands: CommandBus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = new AccountSettings(accounts, commands, config);
  }

  /**
   * How much of available the automatic settlement leaves on the ledger of one environment and
   * currency (USD when left out). Not a cap on payouts. 0 or more; never rounded.
   */
  @Put('retained-target')
  @ApiOperation({ summary: 'Set the retained target of one ledger (kept back from settlement)' })
  @ApiOkResponse({ type: RetainedTargetResponse })
  @ApiErrors({ 400: ['invalid_request', 'invalid_amount', 'unsupported_currency'], 413: [], 415: [] })
  async retainedTarget(
    @AdminAccount() accountId: string,
    @Body(apiValidationPipe()) body: RetainedTargetDto,
  ) {
    const result = await this.settings.setRetainedTarget(accountId, body);
    return {
      environment: result.environment,
      currency: result.currency,
      retained_target: result.retainedTarget,
    };
  }

  @Put('payouts-enabled')
  @ApiOperation({ summary: 'Switch payouts on or off in one environment' })
  @ApiOkResponse({ type: PayoutsEnabledResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async payoutsEnabled(
    @AdminAccount() accountId: string,
    @Body(apiValidationPipe()) body: PayoutsEnabledDto,
  ) {
    await this.settings.setPayoutsEnabled(accountId, body);
    return { environment: body.environment, enabled: body.enabled };
  }

  /** The token (and a checkout key's API secret) is shown here once; only verifiers are kept. */
  @Post('credentials')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue a credential (token and secret shown once)' })
  @ApiCreatedResponse({ type: IssuedCredentialResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async issue(@AdminAccount() accountId: string, @Body(apiValidationPipe()) body: IssueCredentialDto) {
    const issued = await this.settings.issueCredential(accountId, body);
    return {
      credential_id: issued.credentialId,
      kind: issued.kind,
      environment: issued.environment,
      scopes: issued.scopes,
      token: issued.token,
      ...(issued.secret ? { secret: issued.secret } : {}),
      created_at: issued.createdAt,
    };
  }

  @Get('credentials')
  @ApiOperation({ summary: 'List credentials (no secrets)' })
  @ApiOkResponse({ type: CredentialListResponse })
  async list(@AdminAccount() accountId: string) {
    const credentials = await this.accounts.listCredentials(accountId);
    return {
      data: credentials.map((c) => ({
        credential_id: c.credentialId,
        kind: c.kind,
        environment: c.environment,
        scopes: c.scopes,
        token_hint: c.tokenHint,
        created_at: c.createdAt,
        revoked_at: c.revokedAt,
      })),
    };
  }

  @Delete('credentials/:credential_id')
  @ApiOperation({ summary: 'Revoke a credential (effective from the next request)' })
  @ApiOkResponse({ type: RevokedCredentialResponse })
  @ApiErrors({ 404: [] })
  async revoke(@AdminAccount() accountId: string, @Param('credential_id') credentialId: string) {
    await this.settings.revokeCredential(accountId, credentialId);
    return { credential_id: credentialId, revoked: true };
  }

  @Put('return-url-origins')
  @ApiOperation({ summary: 'Set the registered return_url origins of one environment' })
  @ApiOkResponse({ type: ReturnUrlOriginsResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async returnUrlOrigins(
    @AdminAccount() accountId: string,
    @Body(apiValidationPipe()) body: ReturnUrlOriginsDto,
  ) {
    const origins = await this.settings.setReturnUrlOrigins(accountId, body);
    return { environment: body.environment, origins };
  }
}
