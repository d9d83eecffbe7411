import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { ApiError } from '@payouts/http';
import { FundsQueries, SettlementFilters } from '@payouts/settlements';
import { Principal, RequiresScope } from '../../auth/payout-principal';
import type { PayoutPrincipal } from '../../auth/payout-principal';
import { LIST_MAX_LIMIT, QueryParams } from '../../list-queries/query-params';
import { ApiErrors } from '../../openapi/decorators';
import {
  ListSettlementsResponse,
  SETTLEMENT_ID_PATTERN_TEXT,
  SETTLEMENT_STATUSES,
  SettlementWithTransactions,
} from '../../openapi/funds.schemas';
import { CURRENCY, FundsRoutes, SETTLEMENT_ID } from '../funds-routes';

export function parseSettlementsQuery(query: Record<string, unknown>): SettlementFilters {
  const params = new QueryParams(query, ['status', 'currency']);
  return {
    status: params.oneOf('status', SETTLEMENT_STATUSES),
    currency: params.matching('currency', CURRENCY, 'three upper-case letters such as USD'),
    ...params.page(),
  };
}

/** Settlements: money paid (or on its way) from the ledgers to the merchant's bank. */
@FundsRoutes('settlements')
export class SettlementsRoute {
  constructor(private readonly queries: FundsQueries) {}

  @Get()
  @RequiresScope('payouts:read')
  @ApiOperation({ summary: 'List Settlements', description: 'Scope `payouts:read`. Newest first.' })
  // Listed last to first: Swagger adds them in the reverse order of the decorators.
  @ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Page size; above 200 is capped at 200',
    schema: { type: 'integer', minimum: 1, default: 50 },
  })
  @ApiQuery({ name: 'currency', required: false, schema: { type: 'string', pattern: '^[A-Z]{3}$' } })
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...SETTLEMENT_STATUSES] } })
  @ApiOkResponse({ description: 'One page of settlements', type: ListSettlementsResponse })
  @ApiErrors({ 400: ['invalid_request'] })
  list(@Principal() principal: PayoutPrincipal, @Query() query: Record<string, unknown>) {
    return this.queries.settlements(principal.accountId, principal.environment, parseSettlementsQuery(query));
  }

  @Get(':settlement_id')
  @RequiresScope('payouts:read')
  @ApiOperation({
    summary: 'Get Settlement',
    description: 'Scope `payouts:read`. The settlement and the balance transactions it covers.',
  })
  @ApiParam({
    name: 'settlement_id',
    description: 'A malformed or unknown id answers 404 `not_found`',
    schema: { type: 'string', pattern: SETTLEMENT_ID_PATTERN_TEXT },
  })
  @ApiOkResponse({ description: 'The settlement', type: SettlementWithTransactions })
  @ApiErrors({ 404: [] })
  get(@Principal() principal: PayoutPrincipal, @Param('settlement_id') settlementId: string) {
    // A malformed id cannot name a settlement: 404 like any unknown one.
    if (!SETTLEMENT_ID.test(settlementId)) throw new ApiError(404, 'not_found', 'no such settlement');
    return this.queries.settlement(principal.accountId, principal.environment, settlementId, LIST_MAX_LIMIT);
  }
}
