import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORDER_METHODS, ORDER_STATUSES } from '@payouts/domain';
import { API_DATE_FORMS, API_DATE_PATTERN } from '@payouts/http';

/** The body of the five create paths (docs/design.md#create-body). Any other field is refused. */
export class CreateOrderRequest {
  @ApiProperty({
    type: Number,
    example: 10.5,
    description:
      'A JSON number greater than 0 with at most 2 decimal places as written, in plain notation; between 0.50 and 100000.00 by default. Judged on the text, never rounded: 10.500, 10.049999999999999999 and 1e2 are refused (`invalid_amount`), as is a string',
  })
  amount!: number;

  @ApiProperty({
    type: String,
    example: 'USD',
    description: "One of the account region's currencies (`unsupported_currency` otherwise)",
  })
  currency!: string;

  @ApiProperty({ type: String, maxLength: 255, format: 'email', description: "The customer's e-mail" })
  customer!: string;

  @ApiPropertyOptional({ type: String, maxLength: 255, description: 'Shown on the checkout page' })
  product?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 2048,
    format: 'uri',
    description:
      'Absolute https URL (http too in the sandbox): where the payer goes after paying, with `order_id` added',
  })
  redirect_url?: string;
}

export class CreateOrderResponse {
  @ApiProperty({ type: String, format: 'uri', description: 'The hosted checkout page: send the payer here' })
  order_url!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  order_id!: number;

  @ApiProperty({ type: String, example: '10.50', description: 'The amount, two decimals' })
  amount!: string;
}

/** A payment order as every checkout endpoint returns it (docs/design.md#orders-and-their-states). */
export class PaymentOrder {
  @ApiProperty({ type: 'integer', minimum: 1 })
  id!: number;

  @ApiProperty({
    type: Number,
    example: 10.5,
    description: 'The amount, at most 2 decimals (named with a capital A)',
  })
  Amount!: number;

  @ApiProperty({ type: String, example: 'USD' })
  currency!: string;

  @ApiProperty({ type: String })
  customer!: string;

  @ApiProperty({ type: String, description: '"" when none was given' })
  product!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The account's checkout webhook URL when the order was created",
  })
  hook_url!: string | null;

  @ApiProperty({ type: String, enum: ORDER_STATUSES })
  status!: string;

  @ApiProperty({ type: String, enum: ORDER_METHODS })
  method!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  paid_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  expires_at!: string;
}

export class PaymentsListResponse {
  @ApiProperty({ type: 'integer', minimum: 0 })
  total!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 })
  limit!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  offset!: number;

  @ApiProperty({ type: [PaymentOrder], description: 'Newest first' })
  data!: PaymentOrder[];
}

export class PaymentsHistoryRequest {
  @ApiProperty({
    type: String,
    pattern: API_DATE_PATTERN,
    example: '2026-01-01T00:00:00Z',
    description: `Created on or after: ${API_DATE_FORMS}`,
  })
  start_date!: string;

  @ApiProperty({
    type: String,
    pattern: API_DATE_PATTERN,
    example: '2026-01-31T23:59:59.999Z',
    description: `Created on or before (a date alone is that day at 00:00 UTC, so 2026-01-31 leaves out the rest of that day): ${API_DATE_FORMS}`,
  })
  end_date!: string;
}

export class PaymentsHistoryResponse {
  @ApiProperty({ type: Number, description: 'The exact sum of the amounts of the orders returned' })
  amount!: number;

  @ApiProperty({ type: [PaymentOrder], description: 'Newest first' })
  data!: PaymentOrder[];
}

export class PaymentStatusResponse {
  @ApiProperty({ type: String, enum: ORDER_STATUSES })
  status!: string;

  @ApiProperty({ type: PaymentOrder })
  data!: PaymentOrder;
}

export class TestWebhookResponse {
  @ApiProperty({ type: 'integer', example: 0 })
  order_id!: number;

  @ApiProperty({ type: String, example: 'SUCCESS' })
  status!: string;

  @ApiProperty({ type: Number, example: 1 })
  amount!: number;

  @ApiProperty({ type: String, example: 'Test webhook' })
  product!: string;
}
