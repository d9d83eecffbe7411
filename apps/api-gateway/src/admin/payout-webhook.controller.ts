import {
  Body,
  Controller,
  Delete,
  Get,
  UseGuards,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, SQL_CLIENT } from '@payouts/platform';
import { ApiError, apiValidationPipe } from '@payouts/http';
import { EVENT_LOG_PAGE } from '@payouts/webhooks';
import { ApiErrors } from '../openapi/decorators';
import {
  QueuedWebhookResponse,
  RemovedPayoutWebhookResponse,
  SavedPayoutWebhookResponse,
  WebhookEventListResponse,
  WebhookEventView,
} from '../openapi/payout-webhook.schemas';
import { AdminAccount, AdminGuard } from './admin-auth';
import {
  PayoutWebhookEndpointDto,
  PayoutWebhookEnvironmentDto,
  PayoutWebhookTestDto,
} from './payout-webhook.dto';
import { ENVIRONMENT_QUERY, environmentOf, text, whole } from './payout-webhook.query';
import {
  EnabledPayoutWebhookResponse,
  PayoutWebhookEndpointStateResponse,
  RotatedPayoutWebhookSecretResponse,
} from './payout-webhook-state.schemas';
import { PayoutWebhookSettings } from './payout-webhook.settings';
import { endpointStateView, endpointView, eventView } from './payout-webhook.views';

/**
 * The payout webhook settings of the dashboard (docs/design.md#payout-webhooks, docs/webhooks.md:
 * Send payouts, Settings, API integration) and the delivery log, with the account's admin token.
 * Saving checks the URL (https, public addresses only, after DNS resolution) and shows the secret
 * once; the dispatcher checks again before every attempt. The rules and refusals are in
 * PayoutWebhookSettings, shared with the dashboard's API integration page.
 */
@Controller('dashboard/payout-webhook')
@UseGuards(AdminGuard)
@ApiTags('Dashboard')
@ApiBearerAuth('admin_token')
@ApiErrors({ 401: [] })
export class PayoutWebhookController {
  private readonly settings: PayoutWebhookSettings;

  constructor(
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.settings = new PayoutWebhookSettings(db, config, clock);
  }

  @Put()
  @ApiOperation({
    summary: 'Set the payout webhook URL of one environment (the signing secret is shown once)',
    description:
      'Replaces an earlier URL and secret. Deliveries still waiting go to the new URL, signed with the new secret.',
  })
  @ApiOkResponse({ type: SavedPayoutWebhookResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [] })
  async save(@AdminAccount() accountId: string, @Body(apiValidationPipe()) body: PayoutWebhookEndpointDto) {
    const { endpoint, secret } = await this.settings.save(accountId, body.environment, body.url);
    return { ...endpointView(endpoint), secret };
  }

  @Get()
  @ApiOperation({
    summary: 'The payout webhook URL of one environment (never the secret)',
    description:
      'Also shows whether a replaced secret still signs (`previous_secret_expires_at`) and whether the endpoint was disabled after 5 days of failed attempts (`disabled_at`, `disabled_reason`).',
  })
  @ApiQuery(ENVIRONMENT_QUERY)
  @ApiOkResponse({ type: PayoutWebhookEndpointStateResponse })
  @ApiErrors({ 400: ['invalid_request'], 404: [] })
  async get(@AdminAccount() accountId: string, @Query() query: Record<string, unknown>) {
    const environment = environmentOf(query, ['environment']);
    const endpoint = await this.settings.get(accountId, environment);
    if (!endpoint)
      throw new ApiError(404, 'not_found', 'no payout webhook endpoint is set for this environment');
    return endpointStateView(endpoint);
  }

  @Post('rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret (the new one is shown once); the old one keeps signing for 24 hours',
    description:
      'The URL stays. For 24 hours (environment clock) every attempt is signed with both secrets: `X-Service-Payout-Signature: t=<t>,v1=<new>,v1=<old>`, and a receiver accepts if any `v1` matches its secret. Then only the new one signs. Rotating again within the 24 hours drops the older secret at once.',
  })
  @ApiOkResponse({ type: RotatedPayoutWebhookSecretResponse })
  @ApiErrors({ 400: ['invalid_request'], 409: ['no_webhook_endpoint'], 413: [], 415: [] })
  async rotateSecret(
    @AdminAccount() accountId: string,
    @Body(apiValidationPipe()) body: PayoutWebhookEnvironmentDto,
  ) {
    const rotated = await this.settings.rotateSecret(accountId, body.environment);
    return {
      environment: body.environment,
      secret: rotated.secret,
      secret_rotated_at: rotated.endpoint.secretRotatedAt,
      previous_secret_expires_at: rotated.endpoint.previousSecretExpiresAt,
    };
  }

  @Post('enable')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Enable an endpoint that was disabled after 5 days of failed attempts',
    description:
      'Every pending delivery is due at once, and the failures are counted afresh. Enabling an endpoint that is not disabled changes nothing (`rescheduled_deliveries: 0`).',
  })
  @ApiOkResponse({ type: EnabledPayoutWebhookResponse })
  @ApiErrors({ 400: ['invalid_request'], 409: ['no_webhook_endpoint'], 413: [], 415: [] })
  async enable(
    @AdminAccount() accountId: string,
    @Body(apiValidationPipe()) body: PayoutWebhookEnvironmentDto,
  ) {
    const enabled = await this.settings.enable(accountId, body.environment);
    return { ...endpointStateView(enabled.endpoint), rescheduled_deliveries: enabled.rescheduledDeliveries };
  }

  @Delete()
  @ApiOperation({
    summary: 'Stop sending: remove the endpoint, discard its secret, drop what is waiting',
    description: 'Idempotent: removing an endpoint that is not set answers `removed: false`.',
  })
  @ApiQuery(ENVIRONMENT_QUERY)
  @ApiOkResponse({ type: RemovedPayoutWebhookResponse })
  @ApiErrors({ 400: ['invalid_request'] })
  async remove(@AdminAccount() accountId: string, @Query() query: Record<string, unknown>) {
    const environment = environmentOf(query, ['environment']);
    const { removed, droppedDeliveries } = await this.settings.remove(accountId, environment);
    return { environment, removed, dropped_deliveries: droppedDeliveries };
  }

  @Post('test')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a payout.test event (id evt_test_…, no payout behind it), one attempt',
    description: 'Answers at once; the attempt and its outcome appear in the delivery log.',
  })
  @ApiAcceptedResponse({ type: QueuedWebhookResponse })
  @ApiErrors({ 400: ['invalid_request'], 409: ['no_webhook_endpoint'], 413: [], 415: [] })
  async test(@AdminAccount() accountId: string, @Body(apiValidationPipe()) body: PayoutWebhookTestDto) {
    const queued = await this.settings.sendTest(accountId, body.environment);
    return { event_id: queued.eventId, delivery_id: queued.deliveryId, status: 'pending' };
  }

  @Get('events')
  @ApiOperation({
    summary: 'The delivery log: events of one environment, newest first, each with every attempt',
    description: 'Filter by `payout_id` for the log of one payout.',
  })
  @ApiQuery(ENVIRONMENT_QUERY)
  @ApiQuery({ name: 'payout_id', required: false, schema: { type: 'string', maxLength: 191 } })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: EVENT_LOG_PAGE.max, default: EVENT_LOG_PAGE.default },
  })
  @ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiOkResponse({ type: WebhookEventListResponse })
  @ApiErrors({ 400: ['invalid_request'] })
  async list(@AdminAccount() accountId: string, @Query() query: Record<string, unknown>) {
    const environment = environmentOf(query, ['environment', 'payout_id', 'limit', 'offset']);
    const payoutId = text(query, 'payout_id', 191);
    const limit = whole(query, 'limit', EVENT_LOG_PAGE.default, 1, EVENT_LOG_PAGE.max);
    const offset = whole(query, 'offset', 0, 0, 1_000_000);
    const page = await this.settings.list(accountId, environment, { payoutId, limit, offset });
    return { total: page.total, limit: page.limit, offset: page.offset, data: page.data.map(eventView) };
  }

  @Get('events/:event_id')
  @ApiOperation({ summary: 'One event of the delivery log with every delivery and attempt' })
  @ApiParam({ name: 'event_id', schema: { type: 'string', pattern: '^evt_[0-9a-z_]+$' } })
  @ApiOkResponse({ type: WebhookEventView })
  @ApiErrors({ 404: [] })
  async event(@AdminAccount() accountId: string, @Param('event_id') eventId: string) {
    const entry = await this.settings.event(accountId, eventId);
    if (!entry) throw new ApiError(404, 'not_found', 'no such event');
    return eventView(entry);
  }

  @Post('events/:event_id/resend')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Resend an event: one more attempt, same body and id, freshly signed',
    description:
      'Goes to the endpoint set now. Any event of the account can be resent, also after its 5 attempts.',
  })
  @ApiParam({ name: 'event_id', schema: { type: 'string', pattern: '^evt_[0-9a-z_]+$' } })
  @ApiAcceptedResponse({ type: QueuedWebhookResponse })
  @ApiErrors({ 404: [], 409: ['no_webhook_endpoint', 'resend_in_progress'] })
  async resend(@AdminAccount() accountId: string, @Param('event_id') eventId: string) {
    const queued = await this.settings.resend(accountId, eventId);
    if (!queued) throw new ApiError(404, 'not_found', 'no such event');
    return { event_id: eventId, delivery_id: queued.deliveryId, status: 'pending' };
  }
}
