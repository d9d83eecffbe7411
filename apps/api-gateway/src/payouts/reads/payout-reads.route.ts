import { Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import { PAYOUT_STATUSES } from '@payouts/domain';
import { API_DATE_FORMS, API_DATE_PATTERN } from '@payouts/http';
import { PayoutQueries } from '@payouts/payouts';
import { PrefetchedBesideCredential, Principal, RequiresScope } from '../../auth/payout-principal';
import type { PayoutPrincipal } from '../../auth/payout-principal';
import { ApiErrors, ApiPayoutIdParam } from '../../openapi/decorators';
import {
  BalanceResponse,
  BalanceUnavailableResponse,
  ListPayoutsResponse,
  PayoutMerchantView,
} from '../../openapi/payout.schemas';
import { PAYOUT_ID } from '../payout-id';
import { PayoutRoutes } from '../payout-routes';
import { parseListQuery } from './list-query';

/** List Payouts, Get Payout Balance and Get Payout (`GET /api/payout/...`): the payout reads. */
@PayoutRoutes()
@ApiExtraModels(BalanceResponse, BalanceUnavailableResponse)
export class PayoutReadsRoute {
  constructor(private readonly queries: PayoutQueries) {}

  @Get('list')
  @RequiresScope('payouts:read')
  @ApiOperation({ summary: 'List Payouts', description: 'Scope `payouts:read`. Newest first.' })
  // Listed last to first: Swagger adds them in the reverse order of the decorators.
  @ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Page size; above 200 is capped at 200',
    schema: { type: 'integer', minimum: 1, default: 50 },
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
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...PAYOUT_STATUSES] } })
  @ApiQuery({ name: 'customer_id', required: false, schema: { type: 'string', maxLength: 191 } })
  @ApiQuery({ name: 'merchant_reference', required: false, schema: { type: 'string', maxLength: 191 } })
  @ApiOkResponse({ description: 'One page of payouts', type: ListPayoutsResponse })
  @ApiErrors({ 400: ['invalid_request'] })
  list(@Principal() principal: PayoutPrincipal, @Query() query: Record<string, unknown>) {
    return this.queries.list(principal.accountId, principal.environment, parseListQuery(query));
  }

  @Get('balance')
  @RequiresScope('payouts:read')
  @ApiOperation({
    summary: 'Get Payout Balance',
    description:
      'Scope `payouts:read`. When the balance cannot be calculated the answer is `{currency, available: null, reason}`.',
  })
  @ApiOkResponse({
    description: 'The balance, or why it cannot be calculated',
    schema: {
      oneOf: [{ $ref: getSchemaPath(BalanceResponse) }, { $ref: getSchemaPath(BalanceUnavailableResponse) }],
    },
  })
  async balance(@Principal() principal: PayoutPrincipal) {
    return (await this.queries.balance(principal.accountId, principal.environment)).body;
  }

  @Get(':payout_id')
  @RequiresScope('payouts:read')
  @ApiOperation({ summary: 'Get Payout', description: 'Scope `payouts:read`.' })
  @ApiPayoutIdParam()
  @ApiOkResponse({ description: 'The payout', type: PayoutMerchantView })
  @ApiErrors({ 404: [] })
  @PrefetchedBesideCredential<PayoutQueries>({
    provider: PayoutQueries,
    start: (queries, params) => {
      const payoutId = params['payout_id'];
      // A malformed id cannot name a payout: nothing to read, and 404 like any unknown one.
      return payoutId !== undefined && PAYOUT_ID.test(payoutId)
        ? queries.prefetchView(payoutId)
        : Promise.resolve(null);
    },
  })
  get(@Principal() principal: PayoutPrincipal) {
    return this.queries.ownView(principal.prefetched, principal.accountId, principal.environment);
  }
}
