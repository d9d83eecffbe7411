import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENVIRONMENTS, MAX_CLEARING_DAYS, ORDER_METHODS } from '@payouts/domain';
import type { Environment } from '@payouts/domain';
import { IsIn, IsObject, IsOptional, IsString, Matches } from 'class-validator';

const environment = () => IsIn(ENVIRONMENTS, { message: 'environment must be "production" or "sandbox"' });
const MONEY_PATTERN = /^(0|[1-9]\d{0,14})(\.\d{1,2})?$/;

const methodPrices = Object.fromEntries(
  ORDER_METHODS.map((method) => [
    method,
    {
      type: 'object',
      properties: {
        percent: { type: 'string', pattern: '^\\d{1,3}(\\.\\d{1,4})?$', example: '2.90' },
        fixed: { type: 'string', pattern: MONEY_PATTERN.source, example: '0.30' },
      },
      required: ['percent', 'fixed'],
    },
  ]),
);
const clearingDays = Object.fromEntries(
  ORDER_METHODS.map((method) => [method, { type: 'integer', minimum: 0, maximum: MAX_CLEARING_DAYS }]),
);

/**
 * The operator's pricing of an account in one environment. The maps are checked by the domain's
 * parsePricing (unknown method, percent outside 0-100 or over 4 decimals, fixed not money,
 * clearing days not a whole number from 0 to 30: 400 with the field as `param`).
 */
export class PricingDto {
  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  @environment()
  environment!: Environment;

  @ApiPropertyOptional({
    type: 'object',
    properties: methodPrices,
    additionalProperties: false,
    description:
      'Per method: percent of the gross (0-100, up to 4 decimals) plus a fixed amount; a method left out keeps the default',
  } as never)
  @IsOptional()
  @IsObject({ message: 'methods must be an object' })
  methods?: Record<string, { percent?: unknown; fixed?: unknown }>;

  @ApiPropertyOptional({
    type: 'object',
    properties: clearingDays,
    additionalProperties: false,
    description: 'Per method: whole days from payment until the net is available (0-30)',
  } as never)
  @IsOptional()
  @IsObject({ message: 'clearing_days must be an object' })
  clearing_days?: Record<string, unknown>;
}

export class PricingQueryDto {
  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  @environment()
  environment!: Environment;
}

export class RetainedTargetDto {
  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  @environment()
  environment!: Environment;

  @ApiProperty({
    type: String,
    pattern: MONEY_PATTERN.source,
    example: '250.00',
    description: 'Kept back from the automatic settlement; 0 or more, at most 2 decimals',
  })
  @IsString({ message: 'amount must be a decimal string', context: { code: 'invalid_amount' } })
  @Matches(MONEY_PATTERN, {
    message: 'amount must be a decimal string with at most 2 decimal places',
    context: { code: 'invalid_amount' },
  })
  amount!: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^[A-Z]{3}$',
    default: 'USD',
    description: 'The ledger currency',
  })
  @IsOptional()
  @IsString({ message: 'currency must be a three-letter code such as USD' })
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a three-letter code such as USD' })
  currency?: string;
}

export class SettlementRunDto {
  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  @environment()
  environment!: Environment;
}

export class SettlementRailOutcomeDto {
  @ApiProperty({ type: String, enum: ['sandbox'], description: 'Production always pays in the simulator' })
  @IsIn(['sandbox'], { message: 'environment must be "sandbox" (production always pays)' })
  environment!: 'sandbox';

  @ApiProperty({ type: String, enum: ['paid', 'failed'] })
  @IsIn(['paid', 'failed'], { message: 'outcome must be "paid" or "failed"' })
  outcome!: 'paid' | 'failed';
}
