import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { API_DATE_FORMS, API_DATE_PATTERN } from '@payouts/http';
import { TRANSACTION_TYPES } from '@payouts/read-models';
import { FundsQueries, TransactionFilters } from '@payouts/settlements';
import { Principal, RequiresScope } from '../../auth/payout-principal';
import type { PayoutPrincipal } from '../../auth/payout-principal';
import { QueryParams } from '../../list-queries/query-params';
import { ApiErrors } from '../../openapi/decorators';
import { ListBalanceTransactionsResponse, SETTLEMENT_ID_PATTERN_TEXT } from '../../openapi/funds.schemas';
import { CURRENCY, FundsRoutes, SETTLEMENT_ID } from '../funds-routes';

/** The merchant's balance transactions: every money movement of its ledgers, newest first. */
export function parseTransactionsQuery(query: Record<string, unknown>): TransactionFilters {
  const params = new QueryParams(query, ['type', 'currency', 'since', 'until', 'settlement_id']);
  return {
    type: params.oneOf('type', TRANSACTION_TYPES),
    currency: params.matching('currency', CURRENCY, 'three upper-case letters such as USD'),
    since: params.time('since'),
    until: params.time('until'),
    settlementId: params.matching('settlement_id', SETTLEMENT_ID, 'a settlement id (stl_ and 24 hex digits)'),
    ...params.page(),
  };
}

@FundsRoutes('balance')
export class BalanceTransactionsRoute {
  constructor(private readonly queries: FundsQueries) {}

  @Get('transactions')
  @RequiresScope('payouts:read')
  @ApiOperation({
    summary: 'List Balance Transactions',
    description: 'Scope `payouts:read`. Every money movement of the ledgers, newest first.',
  })
  // Listed last to first: Swagger adds them in the reverse order of the decorators.
  @ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Page size; above 200 is capped at 200',
    schema: { type: 'integer', minimum: 1, default: 50 },
  })
  @ApiQuery({
    name: 'settlement_id',
    required: false,
    description: 'Only the movements this settlement covers',
    schema: { type: 'string', pattern: SETTLEMENT_ID_PATTERN_TEXT },
  })
  @ApiQuery({
    name: 'until',
    required: false,
    description: `Created before, exclusive: ${API_DATE_FORMS}`,
    schema: { type: 'string', pattern: API_DATE_PATTERN },
  })
  @ApiQuery({
    name: 'since',
    required: false,
    description: `Created at or after: ${API_DATE_FORMS}`,
    schema: { type: 'string', pattern: API_DATE_PATTERN },
  })
  @ApiQuery({ name: 'currency', required: false, schema: { type: 'string', pattern: '^[A-Z]{3}$' } })
  @ApiQuery({ name: 'type', required: false, schema: { type: 'string', enum: [...TRANSACTION_TYPES] } })
  @ApiOkResponse({ description: 'One page of balance transactions', type: ListBalanceTransactionsResponse })
  @ApiErrors({ 400: ['invalid_request'] })
  list(@Principal() principal: PayoutPrincipal, @Query() query: Record<string, unknown>) {
    return this.queries.transactions(
      principal.accountId,
      principal.environment,
      parseTransactionsQuery(query),
    );
  }
}
