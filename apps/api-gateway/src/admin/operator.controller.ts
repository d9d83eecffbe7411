import { Body, Controller, Headers, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { CreditFundsCommand, SetLedgerLimitsCommand } from '@payouts/payouts';
import { ApiError, apiValidationPipe, APP_CONFIG, SandboxAwareClock } from '@payouts/platform';
import { ACCOUNTS } from '../gateway.tokens';
import {
  CreateAccountResponse,
  CreditFundsResponse,
  LimitsResponse,
  PayoutsApprovalResponse,
  SandboxClockResponse,
} from '../openapi/admin.schemas';
import { ApiErrors } from '../openapi/decorators';
import { assertOperator } from './admin-auth';
import {
  CreateAccountDto,
  CreditFundsDto,
  LimitsDto,
  PayoutsApprovalDto,
  SandboxClockDto,
} from './admin.dto';

/** The service operator's API (ARCHITECTURE 4), authenticated by OPERATOR_TOKEN. */
@Controller('operator')
@ApiTags('Operator')
@ApiBearerAuth('operator_token')
@ApiErrors({ 400: ['invalid_request'], 401: [], 413: [], 415: [] })
export class OperatorController {
  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly clock: SandboxAwareClock,
  ) {}

  /** Moves the sandbox's time forward (never production's), so expiry and retries can be tested. */
  @Post('sandbox/clock')
  @HttpCode(200)
  @ApiOperation({ summary: 'Advance the sandbox clock' })
  @ApiOkResponse({ type: SandboxClockResponse })
  async advanceSandboxClock(
    @Headers('authorization') auth: string | undefined,
    @Body(apiValidationPipe()) body: SandboxClockDto,
  ) {
    assertOperator(auth, this.config.operatorToken);
    const { sandboxNow, offsetSeconds } = await this.clock.advance(body.advance_seconds);
    return { sandbox_now: sandboxNow.toISOString(), offset_seconds: offsetSeconds };
  }

  /** A new account with the default fee and limits in both environments; the admin token is shown once. */
  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account (admin token shown once)' })
  @ApiCreatedResponse({ type: CreateAccountResponse })
  async createAccount(
    @Headers('authorization') auth: string | undefined,
    @Body(apiValidationPipe()) body: CreateAccountDto,
  ) {
    assertOperator(auth, this.config.operatorToken);
    const { accountId, adminToken } = await this.accounts.createAccount(body);
    for (const environment of ['production', 'sandbox'] as const) {
      await this.commands.execute(
        new SetLedgerLimitsCommand(accountId, environment, this.config.defaultLimits),
      );
    }
    return { account_id: accountId, admin_token: adminToken };
  }

  @Post('accounts/:account_id/payouts-approval')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve or withdraw approval for payouts' })
  @ApiOkResponse({ type: PayoutsApprovalResponse })
  @ApiErrors({ 404: [] })
  async approve(
    @Headers('authorization') auth: string | undefined,
    @Param('account_id') accountId: string,
    @Body(apiValidationPipe()) body: PayoutsApprovalDto,
  ) {
    assertOperator(auth, this.config.operatorToken);
    if (!(await this.accounts.setPayoutsApproval(accountId, body.approved))) throw noAccount();
    return { account_id: accountId, payouts_approved: body.approved };
  }

  @Post('accounts/:account_id/funds')
  @HttpCode(200)
  @ApiOperation({ summary: 'Credit matured funds' })
  @ApiOkResponse({ type: CreditFundsResponse })
  @ApiErrors({ 400: ['invalid_request', 'invalid_amount'], 404: [] })
  async credit(
    @Headers('authorization') auth: string | undefined,
    @Param('account_id') accountId: string,
    @Body(apiValidationPipe()) body: CreditFundsDto,
  ) {
    assertOperator(auth, this.config.operatorToken);
    if (!(await this.accounts.accountExists(accountId))) throw noAccount();
    const reference = body.reference ?? 'operator';
    const result = await this.commands.execute(
      new CreditFundsCommand(accountId, body.environment, body.amount, reference),
    );
    return {
      account_id: accountId,
      environment: body.environment,
      credited: body.amount,
      ledger_version: result.ledgerVersion,
    };
  }

  @Put('accounts/:account_id/limits')
  @ApiOperation({ summary: "Set the account's fee and limits in one environment" })
  @ApiOkResponse({ type: LimitsResponse })
  @ApiErrors({ 400: ['invalid_request', 'invalid_amount'], 404: [] })
  async limits(
    @Headers('authorization') auth: string | undefined,
    @Param('account_id') accountId: string,
    @Body(apiValidationPipe()) body: LimitsDto,
  ) {
    assertOperator(auth, this.config.operatorToken);
    if (!(await this.accounts.accountExists(accountId))) throw noAccount();
    await this.commands.execute(
      new SetLedgerLimitsCommand(accountId, body.environment, {
        feePerPayout: body.fee_per_payout,
        minPayout: body.min_payout,
        maxPayout: body.max_payout,
        maxOpenExposure: body.max_open_exposure,
        maxPendingPerCustomer: body.max_pending_per_customer,
      }),
    );
    const { environment: _environment, ...limits } = body;
    return { account_id: accountId, environment: body.environment, limits };
  }
}

const noAccount = () => new ApiError(404, 'not_found', 'no such account');
