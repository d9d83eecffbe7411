import { Body, Controller, HttpCode, Inject, Param, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import {
  CreditFundsCommand,
  DecideReviewCommand,
  SetLedgerLimitsCommand,
  TopUpFloatCommand,
} from '@payouts/payouts';
import { APP_CONFIG } from '@payouts/platform';
import { ApiError, apiValidationPipe } from '@payouts/http';
import { SandboxAwareClock } from '@payouts/clock';
import { ACCOUNTS } from '../gateway.tokens';
import {
  CreateAccountResponse,
  CreditFundsResponse,
  FloatResponse,
  LimitsResponse,
  PayoutsApprovalResponse,
  SandboxClockResponse,
} from '../openapi/admin.schemas';
import { ApiErrors, ApiPayoutIdParam } from '../openapi/decorators';
import { PayoutMerchantView } from '../openapi/payout.schemas';
import { payoutMerchantView } from '@payouts/payouts';
import { OperatorGuard } from './admin-auth';
import {
  CreateAccountDto,
  CreditFundsDto,
  LimitsDto,
  PayoutsApprovalDto,
  ReviewDecisionDto,
  SandboxClockDto,
  TopUpFloatDto,
} from './admin.dto';
import { PAYOUT_ID } from '../payouts/payout-id';
import { ENVIRONMENTS } from '@payouts/domain';

/** The service operator's API (docs/design.md#operator-and-dashboard), authenticated by OPERATOR_TOKEN. */
@Controller('operator')
@UseGuards(OperatorGuard)
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
  async advanceSandboxClock(@Body(apiValidationPipe()) body: SandboxClockDto) {
    const { sandboxNow, offsetSeconds } = await this.clock.advance(body.advance_seconds);
    return { sandbox_now: sandboxNow.toISOString(), offset_seconds: offsetSeconds };
  }

  /** A new account with the default fee and limits in both environments; the admin token is shown once. */
  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account (admin token shown once)' })
  @ApiCreatedResponse({ type: CreateAccountResponse })
  async createAccount(@Body(apiValidationPipe()) body: CreateAccountDto) {
    const { accountId, adminToken } = await this.accounts.createAccount(body);
    for (const environment of ENVIRONMENTS) {
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
  async approve(@Param('account_id') accountId: string, @Body(apiValidationPipe()) body: PayoutsApprovalDto) {
    if (!(await this.accounts.setPayoutsApproval(accountId, body.approved))) throw noAccount();
    return { account_id: accountId, payouts_approved: body.approved };
  }

  @Post('accounts/:account_id/funds')
  @HttpCode(200)
  @ApiOperation({ summary: 'Credit matured funds' })
  @ApiOkResponse({ type: CreditFundsResponse })
  @ApiErrors({ 400: ['invalid_request', 'invalid_amount'], 404: [] })
  async credit(@Param('account_id') accountId: string, @Body(apiValidationPipe()) body: CreditFundsDto) {
    if (!(await this.accounts.accountExists(accountId))) throw noAccount();
    const reference = body.reference ?? 'operator';
    const result = await this.commands.execute(
      new CreditFundsCommand(
        accountId,
        body.environment,
        body.amount,
        reference,
        body.reason ?? DEFAULT_CREDIT_REASON,
      ),
    );
    return {
      account_id: accountId,
      environment: body.environment,
      credited: body.amount,
      reason: body.reason ?? DEFAULT_CREDIT_REASON,
      ledger_version: result.ledgerVersion,
    };
  }

  @Put('accounts/:account_id/limits')
  @ApiOperation({ summary: "Set the account's fee and limits in one environment" })
  @ApiOkResponse({ type: LimitsResponse })
  @ApiErrors({ 400: ['invalid_request', 'invalid_amount'], 404: [] })
  async limits(@Param('account_id') accountId: string, @Body(apiValidationPipe()) body: LimitsDto) {
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

  /** Money for the payout rail; payouts queued with safe_reason awaiting_float then go, first come first served. */
  @Post('float')
  @HttpCode(200)
  @ApiOperation({ summary: 'Top up the payout float of an environment' })
  @ApiOkResponse({ type: FloatResponse })
  @ApiErrors({ 400: ['invalid_request', 'invalid_amount'] })
  async topUpFloat(@Body(apiValidationPipe()) body: TopUpFloatDto) {
    const float = await this.commands.execute(
      new TopUpFloatCommand(body.environment, body.amount, body.reference ?? 'operator'),
    );
    return {
      environment: float.environment,
      topped_up: float.toppedUp,
      available: float.available,
      reserved: float.reserved,
      paid_out: float.paidOut,
      float_version: float.floatVersion,
    };
  }

  /** Approve: the payout goes back to processing and is sent. Reject: it fails and its money returns. */
  @Post('payouts/:payout_id/review')
  @HttpCode(200)
  @ApiOperation({ summary: 'Decide a payout under review (review_required)' })
  @ApiPayoutIdParam()
  @ApiOkResponse({ type: PayoutMerchantView, description: 'The payout after the decision' })
  @ApiErrors({ 404: [], 409: ['invalid_transition'] })
  async decideReview(
    @Param('payout_id') payoutId: string,
    @Body(apiValidationPipe()) body: ReviewDecisionDto,
  ) {
    if (!PAYOUT_ID.test(payoutId)) throw new ApiError(404, 'not_found', 'no such payout');
    const payout = await this.commands.execute(new DecideReviewCommand(payoutId, body.decision));
    if (payout.status === 'none') throw new ApiError(404, 'not_found', 'no such payout');
    return payoutMerchantView(payout);
  }
}

/** What an operator credit says when the operator gives no reason. */
const DEFAULT_CREDIT_REASON = 'operator credit';

const noAccount = () => new ApiError(404, 'not_found', 'no such account');
