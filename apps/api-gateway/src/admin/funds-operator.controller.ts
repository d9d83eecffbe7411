import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccountsRepository } from '@payouts/accounts';
import { AccountPricing, Environment } from '@payouts/domain';
import { ApiError, apiValidationPipe } from '@payouts/http';
import {
  PricingQueries,
  SetPricingCommand,
  SettlementRailSettings,
  SettlementRuns,
} from '@payouts/settlements';
import { ACCOUNTS } from '../gateway.tokens';
import { ApiErrors } from '../openapi/decorators';
import {
  PricingResponse,
  SettlementRailOutcomeResponse,
  SettlementRunResponse,
} from '../openapi/funds-admin.schemas';
import { OperatorGuard } from './admin-auth';
import { PricingDto, PricingQueryDto, SettlementRailOutcomeDto, SettlementRunDto } from './funds.dto';

/**
 * The operator's side of the funds flow (docs/design.md#funds-flow): pricing, settlement runs, the
 * rail simulator.
 */
@Controller('operator')
@UseGuards(OperatorGuard)
@ApiTags('Operator')
@ApiBearerAuth('operator_token')
@ApiErrors({ 401: [] })
export class FundsOperatorController {
  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    private readonly commands: CommandBus,
    private readonly pricing: PricingQueries,
    private readonly runs: SettlementRuns,
    private readonly railSettings: SettlementRailSettings,
  ) {}

  /** Every method in the answer, the defaults filled in; it applies to orders paid from now on. */
  @Put('accounts/:account_id/pricing')
  @ApiOperation({ summary: "Set the account's pricing (fees and clearing days) in one environment" })
  @ApiOkResponse({ type: PricingResponse })
  @ApiErrors({ 400: ['invalid_request', 'invalid_amount'], 404: [], 413: [], 415: [] })
  async setPricing(@Param('account_id') accountId: string, @Body(apiValidationPipe()) body: PricingDto) {
    if (!(await this.accounts.accountExists(accountId))) throw noAccount();
    const pricing = await this.commands.execute(
      new SetPricingCommand(accountId, body.environment, {
        methods: body.methods,
        clearingDays: body.clearing_days,
      }),
    );
    return pricingView(accountId, body.environment, pricing);
  }

  @Get('accounts/:account_id/pricing')
  @ApiOperation({ summary: "The account's pricing in one environment (the defaults until set)" })
  @ApiOkResponse({ type: PricingResponse })
  @ApiErrors({ 400: ['invalid_request'], 404: [] })
  async getPricing(
    @Param('account_id') accountId: string,
    @Query(apiValidationPipe()) query: PricingQueryDto,
  ) {
    if (!(await this.accounts.accountExists(accountId))) throw noAccount();
    return pricingView(
      accountId,
      query.environment,
      await this.pricing.pricingOf(accountId, query.environment),
    );
  }

  /**
   * Runs the settlement now on every ledger of the environment (every account and currency):
   * available − retained target, when at least 1.00, is started and sent to the settlement rail.
   */
  @Post('settlements/run')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run the settlement of one environment now' })
  @ApiOkResponse({ type: SettlementRunResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async runSettlements(@Body(apiValidationPipe()) body: SettlementRunDto) {
    const settled = await this.runs.runNow(body.environment);
    return {
      environment: body.environment,
      trigger: 'manual',
      started: settled.map((s) => ({
        settlement_id: s.settlementId,
        account_id: s.accountId,
        currency: s.currency,
        amount: s.amount,
        retained_target: s.retainedTarget,
        status: s.status,
        failure_reason: s.failureReason,
        created_at: s.startedAt,
      })),
    };
  }

  /** The simulator's sandbox outcome for settlements sent from now on; production always pays. */
  @Put('settlement-rail/outcome')
  @ApiOperation({ summary: "Choose the sandbox settlement rail's outcome (simulator)" })
  @ApiOkResponse({ type: SettlementRailOutcomeResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async setRailOutcome(@Body(apiValidationPipe()) body: SettlementRailOutcomeDto) {
    await this.railSettings.setSandboxOutcome(body.outcome);
    return { environment: body.environment, outcome: body.outcome };
  }
}

function pricingView(accountId: string, environment: Environment, pricing: AccountPricing) {
  return {
    account_id: accountId,
    environment,
    methods: pricing.methods,
    clearing_days: pricing.clearingDays,
  };
}

const noAccount = () => new ApiError(404, 'not_found', 'no such account');
