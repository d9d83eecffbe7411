import { ApiProperty } from '@nestjs/swagger';

const ENVIRONMENTS = ['production', 'sandbox'];
const environment = () => ApiProperty({ type: String, enum: ENVIRONMENTS });
const time = (description?: string) => ApiProperty({ type: String, format: 'date-time', description });
const nullableTime = (description?: string) =>
  ApiProperty({ type: String, format: 'date-time', nullable: true, description });
const EVENT_ID = '^evt_[0-9a-z_]+$';

export class PayoutWebhookEndpointResponse {
  @environment()
  environment!: string;

  @ApiProperty({ type: String, format: 'uri' })
  url!: string;

  @time('When this URL and secret were saved')
  created_at!: string;
}

export class SavedPayoutWebhookResponse extends PayoutWebhookEndpointResponse {
  @ApiProperty({
    type: String,
    pattern: '^whsec_[A-Za-z0-9_-]{43}$',
    description:
      'The signing secret, shown once: HMAC-SHA256 key (the whole text, prefix included) of X-Service-Payout-Signature. Saving again replaces it',
  })
  secret!: string;
}

export class RemovedPayoutWebhookResponse {
  @environment()
  environment!: string;

  @ApiProperty({ type: Boolean, description: 'false when no endpoint was set' })
  removed!: boolean;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Deliveries that were waiting and will not be sent',
  })
  dropped_deliveries!: number;
}

export class QueuedWebhookResponse {
  @ApiProperty({ type: String, pattern: EVENT_ID })
  event_id!: string;

  @ApiProperty({ type: String, pattern: '^whd_[0-9a-f]{24}$' })
  delivery_id!: string;

  @ApiProperty({
    type: String,
    enum: ['pending'],
    description: 'One attempt, due at once; see the delivery log',
  })
  status!: string;
}

export class WebhookAttemptView {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5 })
  attempt_number!: number;

  @time('On the environment clock (the sandbox clock in the sandbox)')
  attempted_at!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The URL the attempt went to' })
  url!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The `t` of the signature (unix seconds)' })
  signature_timestamp!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The HTTP status; null when no answer came' })
  status_code!: number | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  latency_ms!: number;

  @ApiProperty({
    type: Boolean,
    description: 'A 2xx answer (redirects are not followed and count as failures)',
  })
  delivered!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why it did not count: timeout, refused target, HTTP status…',
  })
  error!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 1024,
    description: 'The start of the response body',
  })
  response_body!: string | null;
}

export class WebhookDeliveryView {
  @ApiProperty({ type: String, pattern: '^whd_[0-9a-f]{24}$' })
  delivery_id!: string;

  @ApiProperty({
    type: String,
    enum: ['automatic', 'test', 'manual'],
    description: 'automatic: 5 attempts on the schedule; test and manual (resend): 1 attempt',
  })
  trigger!: string;

  @ApiProperty({ type: String, enum: ['pending', 'delivered', 'failed', 'cancelled'] })
  status!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 5 })
  attempts_made!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5 })
  max_attempts!: number;

  @nullableTime('When the next attempt is due (environment clock); null once finished')
  next_attempt_at!: string | null;

  @time()
  created_at!: string;

  @nullableTime()
  finished_at!: string | null;

  @ApiProperty({ type: [WebhookAttemptView] })
  attempts!: WebhookAttemptView[];
}

export class WebhookEventView {
  @ApiProperty({ type: String, pattern: EVENT_ID })
  event_id!: string;

  @ApiProperty({ type: String, enum: ['payout.updated', 'payout.test'] })
  type!: string;

  @environment()
  environment!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null for payout.test' })
  payout_id!: string | null;

  @time()
  created_at!: string;

  @ApiProperty({
    type: String,
    description: 'The exact body every attempt sends (signatures cover these bytes)',
  })
  body!: string;

  @ApiProperty({ type: [WebhookDeliveryView] })
  deliveries!: WebhookDeliveryView[];
}

export class WebhookEventListResponse {
  @ApiProperty({ type: 'integer', minimum: 0 })
  total!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 })
  limit!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  offset!: number;

  @ApiProperty({ type: [WebhookEventView] })
  data!: WebhookEventView[];
}
