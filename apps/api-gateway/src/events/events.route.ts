import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { EventsFeed, FEED_PAGE_MAX } from '@payouts/events-feed';
import { PayoutAuthGuard } from '../auth/payout-auth.guard';
import { Principal, RequiresScope } from '../auth/payout-principal';
import type { PayoutPrincipal } from '../auth/payout-principal';
import { ApiErrors, PAYOUT_AUTH_403 } from '../openapi/decorators';
import { EventsPage, FEED_DATA_MODELS } from '../openapi/events.schemas';
import { parseEventsQuery } from './events-query';

/** The merchant's events feed (docs/integration.md#events-feed), production and sandbox. */
@Controller(['api/events', 'sandbox/api/events'])
@UseGuards(PayoutAuthGuard)
@ApiTags('Events')
@ApiBearerAuth('payout_credential')
@ApiExtraModels(...FEED_DATA_MODELS)
export class EventsRoute {
  constructor(private readonly feed: EventsFeed) {}

  @Get()
  @RequiresScope('payouts:read')
  @ApiOperation({
    summary: 'List Events',
    description:
      'Scope `payouts:read`. Every event of the account in this environment, oldest first, in the order they were committed: paging on with `next_after` never skips or repeats one. Events are kept at least 30 days.',
  })
  // Listed last to first: Swagger adds them in the reverse order of the decorators.
  @ApiQuery({
    name: 'types',
    required: false,
    description: 'Comma-separated event types; all when absent',
    schema: { type: 'string' },
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `Page size; above ${FEED_PAGE_MAX} is capped at ${FEED_PAGE_MAX}`,
    schema: { type: 'integer', minimum: 1, default: 50 },
  })
  @ApiQuery({
    name: 'after',
    required: false,
    description:
      'An event id (`next_after`): the events committed after it. Absent: from the first kept event',
    schema: { type: 'string', pattern: '^evt_[0-9a-z_]+$' },
  })
  @ApiOkResponse({ description: 'One page of events', type: EventsPage })
  @ApiErrors({ 400: ['invalid_request'], 401: [], 403: PAYOUT_AUTH_403, 410: ['cursor_expired'], 429: [] })
  list(@Principal() principal: PayoutPrincipal, @Query() query: Record<string, unknown>) {
    return this.feed.page(
      { accountId: principal.accountId, environment: principal.environment },
      parseEventsQuery(query),
    );
  }
}
