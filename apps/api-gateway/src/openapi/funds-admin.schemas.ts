import { ApiProperty } from '@nestjs/swagger';
import { MAX_CLEARING_DAYS, ORDER_METHODS } from '@payouts/domain';
import { MONEY_PATTERN_TEXT } from './payout.schemas';

const ENVIRONMENTS = ['production', 'sandbox'];
const environment = () => ApiProperty({ type: String, enum: ENVIRONMENTS });
const money = (description?: string) =>
  ApiProperty({ type: String, pattern: MONEY_PATTERN_TEXT, example: '100.00', description });

const everyMethod = (schema: Record<string, unknown>) =>
  ApiProperty({
    type: 'object',
    properties: Object.fromEntries(ORDER_METHODS.map((method) => [method, schema])),
    required: [...ORDER_METHODS],
  } as never);

export class PricingResponse {
  @ApiProperty({ type: String })
  account_id!: string;

  @environment()
  environment!: string;

  @everyMethod({
    type: 'object',
    properties: { percent: { type: 'string', example: '2.90' }, fixed: { type: 'string', example: '0.30' } },
    required: ['percent', 'fixed'],
  })
  methods!: Record<string, { percent: string; fixed: string }>;

  @everyMethod({ type: 'integer', minimum: 0, maximum: MAX_CLEARING_DAYS })
  clearing_days!: Record<string, number>;
}

export class RetainedTargetResponse {
  @environment()
  environment!: string;

  @ApiProperty({ type: String, example: 'USD' })
  currency!: string;

  @money('Kept back from the automatic settlement')
  retained_target!: string;
}

export class RunSettlement {
  @ApiProperty({ type: String, pattern: '^stl_[0-9a-f]{24}$' })
  settlement_id!: string;

  @ApiProperty({ type: String })
  account_id!: string;

  @ApiProperty({ type: String, example: 'USD' })
  currency!: string;

  @money('available − retained target when the run started')
  amount!: string;

  @money()
  retained_target!: string;

  @ApiProperty({
    type: String,
    enum: ['in_transit', 'paid', 'failed'],
    description: 'After the rail answered',
  })
  status!: string;

  @ApiProperty({ type: String, nullable: true })
  failure_reason!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at!: string;
}

export class SettlementRunResponse {
  @environment()
  environment!: string;

  @ApiProperty({ type: String, enum: ['manual'] })
  trigger!: string;

  @ApiProperty({
    type: RunSettlement,
    isArray: true,
    description: 'Ledgers below 1.00 to settle are left out',
  })
  started!: RunSettlement[];
}

export class SettlementRailOutcomeResponse {
  @ApiProperty({ type: String, enum: ['sandbox'] })
  environment!: string;

  @ApiProperty({ type: String, enum: ['paid', 'failed'] })
  outcome!: string;
}
