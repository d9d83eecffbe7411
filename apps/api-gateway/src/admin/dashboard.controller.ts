import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { normaliseOrigin } from '@payouts/accounts';
import type { AccountsRepository } from '@payouts/accounts';
import { currenciesOfRegion, DEFAULT_CARD_REGIONS, ledgerStreamId, PAYOUT_CURRENCY } from '@payouts/domain';
import { ApiError, apiValidationPipe } from '@payouts/http';
import { SetRetainedTargetCommand } from '@payouts/settlements';
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
import { isAcceptedReturnUrl } from '../payouts/create-payout/return-url-rule';
import { IssueCredentialDto, PayoutsEnabledDto, ReturnUrlOriginsDto } from './admin.dto';

/**
 * The account administrator's API (docs/design.md#operator-and-dashboard), authenticated by the
 * admin token.
 */
@Controller('dashboard')
@UseGuards(AdminGuard)
@ApiTags('Dashboard')
@ApiBearerAuth('admin_token')
@ApiErrors({ 401: [] })
export class DashboardController {
  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    private readonly commands: CommandBus,
  ) {}

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
    const currency = body.currency ?? PAYOUT_CURRENCY;
    if (!SETTLED_CURRENCIES.has(currency)) {
      throw new ApiError(400, 'unsupported_currency', `no ledger is kept in ${currency}`, 'currency');
    }
    const result = await this.commands.execute(
      new SetRetainedTargetCommand(ledgerStreamId(accountId, body.environment, currency), body.amount),
    );
    return { environment: body.environment, currency, retained_target: result.retainedTarget };
  }

  @Put('payouts-enabled')
  @ApiOperation({ summary: 'Switch payouts on or off in one environment' })
  @ApiOkResponse({ type: PayoutsEnabledResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async payoutsEnabled(
    @AdminAccount() accountId: string,
    @Body(apiValidationPipe()) body: PayoutsEnabledDto,
  ) {
    await this.accounts.setPayoutsEnabled(accountId, body.environment, body.enabled);
    return { environment: body.environment, enabled: body.enabled };
  }

  /** The token (and a checkout key's API secret) is shown here once; only verifiers are kept. */
  @Post('credentials')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue a credential (token and secret shown once)' })
  @ApiCreatedResponse({ type: IssuedCredentialResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async issue(@AdminAccount() accountId: string, @Body(apiValidationPipe()) body: IssueCredentialDto) {
    // As for every optional field (IsOptional), null means left out: a payout credential gets both scopes.
    const scopes = body.scopes ?? undefined;
    if (body.kind === 'checkout' && scopes !== undefined) {
      throw new ApiError(400, 'invalid_request', 'checkout credentials carry no payout scopes', 'scopes');
    }
    if (body.kind === 'payout' && scopes !== undefined && scopes.length === 0) {
      throw new ApiError(400, 'invalid_request', 'a payout credential needs at least one scope', 'scopes');
    }
    const issued = await this.accounts.issueCredential(accountId, {
      kind: body.kind,
      environment: body.environment,
      scopes,
    });
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
    if (!(await this.accounts.revokeCredential(accountId, credentialId))) {
      throw new ApiError(404, 'not_found', 'no such credential');
    }
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
    const origins = body.origins.map((origin, index) => {
      const normalised = normaliseOrigin(origin);
      // An origin is scheme, host and port only: no path, no wildcard.
      if (!normalised || origin.includes('*')) {
        throw new ApiError(
          400,
          'invalid_request',
          `origins[${index}] must be an http(s) origin such as https://shop.example.com`,
          'origins',
        );
      }
      // Create Payout's own return_url rule: an origin none of whose URLs it accepts (a host with an
      // underscore or a trailing dot) could never be used.
      if (!isAcceptedReturnUrl(`${normalised}/`)) {
        throw new ApiError(
          400,
          'invalid_request',
          `origins[${index}] has a host that return_url does not accept (no underscore, no trailing dot)`,
          'origins',
        );
      }
      return normalised;
    });
    await this.accounts.setReturnUrlOrigins(accountId, body.environment, [...new Set(origins)]);
    return { environment: body.environment, origins: [...new Set(origins)] };
  }
}

/** Currencies a ledger can be in: those any checkout region may charge (orders make the ledgers). */
const SETTLED_CURRENCIES: ReadonlySet<string> = new Set([
  PAYOUT_CURRENCY,
  ...DEFAULT_CARD_REGIONS.flatMap((region) => currenciesOfRegion(region)),
]);
