import { ApiProperty } from '@nestjs/swagger';
import { MAX_WEBHOOK_URL_LENGTH } from '@payouts/webhooks';
import { IsIn, IsString, Length } from 'class-validator';
import { ENVIRONMENTS } from '@payouts/domain';
import type { Environment } from '@payouts/domain';

const environment = () => IsIn(ENVIRONMENTS, { message: 'environment must be "production" or "sandbox"' });
const environmentDoc = () => ApiProperty({ type: String, enum: ENVIRONMENTS });

export class PayoutWebhookEndpointDto {
  @environmentDoc() @environment() environment!: Environment;

  @ApiProperty({
    type: String,
    format: 'uri',
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    example: 'https://shop.example.com/webhooks/payouts',
    description:
      'An https URL whose host resolves only to public addresses (no loopback, private, link-local, CGNAT, multicast or reserved address, in any spelling); no user name or password',
  })
  @IsString({ message: 'url must be a string' })
  @Length(1, MAX_WEBHOOK_URL_LENGTH, { message: `url must be 1 to ${MAX_WEBHOOK_URL_LENGTH} characters` })
  url!: string;
}

export class PayoutWebhookTestDto {
  @environmentDoc() @environment() environment!: Environment;
}

/** The body of the routes that act on one environment's endpoint (rotate-secret, enable). */
export class PayoutWebhookEnvironmentDto {
  @environmentDoc() @environment() environment!: Environment;
}
