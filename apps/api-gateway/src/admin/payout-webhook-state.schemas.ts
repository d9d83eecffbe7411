import { ApiProperty } from '@nestjs/swagger';
import { PayoutWebhookEndpointResponse } from '../openapi/payout-webhook.schemas';

// The OpenAPI shapes of the payout webhook endpoint's state (docs/webhooks.md): the secret's
// rotation and overlap, and the automatic disabling after 5 days of failed attempts.

const ENVIRONMENTS = ['production', 'sandbox'];
const ENVIRONMENT_CLOCK = 'on the environment clock (the sandbox clock in the sandbox)';
const nullableTime = (description: string) =>
  ApiProperty({ type: String, format: 'date-time', nullable: true, description });

export class PayoutWebhookEndpointStateResponse extends PayoutWebhookEndpointResponse {
  @nullableTime(
    `The last rotation of the signing secret, ${ENVIRONMENT_CLOCK}; null if never rotated since saved`,
  )
  secret_rotated_at!: string | null;

  @nullableTime(
    `Until when the secret the last rotation replaced still signs beside the new one (a second v1 in X-Service-Payout-Signature), ${ENVIRONMENT_CLOCK}; null when only the current secret signs`,
  )
  previous_secret_expires_at!: string | null;

  @nullableTime(
    `The first failed attempt since the last delivered one (or since the endpoint was saved or enabled), ${ENVIRONMENT_CLOCK}; null while the last attempt was delivered`,
  )
  failing_since!: string | null;

  @nullableTime(
    `Set when every attempt had failed for 5 days: automatic deliveries are held (still pending) until POST /dashboard/payout-webhook/enable; null while enabled`,
  )
  disabled_at!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 1000,
    description: 'Why the endpoint was disabled, for the dashboard notice; null while enabled',
  })
  disabled_reason!: string | null;
}

export class RotatedPayoutWebhookSecretResponse {
  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  environment!: string;

  @ApiProperty({
    type: String,
    pattern: '^whsec_[A-Za-z0-9_-]{43}$',
    description:
      'The new signing secret, shown once. Until previous_secret_expires_at every attempt carries two v1 signatures, the new secret’s first: a receiver accepts if any v1 matches its secret',
  })
  secret!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: `When it was rotated, ${ENVIRONMENT_CLOCK}`,
  })
  secret_rotated_at!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: `24 hours later: from then on only the new secret signs (${ENVIRONMENT_CLOCK})`,
  })
  previous_secret_expires_at!: string;
}

export class EnabledPayoutWebhookResponse extends PayoutWebhookEndpointStateResponse {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Pending deliveries made due at once (0 when the endpoint was not disabled)',
  })
  rescheduled_deliveries!: number;
}
