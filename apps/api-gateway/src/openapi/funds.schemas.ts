import { ApiProperty } from '@nestjs/swagger';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@payouts/read-models';
import { PAYOUT_ID_PATTERN_TEXT } from './payout.schemas';

/** Signed, exactly two decimals: a movement's amount, fee and net. */
export const SIGNED_MONEY_PATTERN_TEXT = '^-?(0|[1-9]\\d{0,14})\\.\\d{2}$';
export const SETTLEMENT_ID_PATTERN_TEXT = '^stl_[0-9a-f]{24}$';
export const TRANSACTION_ID_PATTERN_TEXT = '^txn_[0-9a-f]{24}$';
export const SETTLEMENT_STATUSES = ['in_transit', 'paid', 'failed'] as const;

const signed = (description: string) =>
  ApiProperty({ type: String, pattern: SIGNED_MONEY_PATTERN_TEXT, example: '-20.50', description });
const time = (description: string, nullable = false) =>
  ApiProperty({ type: String, format: 'date-time', description, ...(nullable ? { nullable } : {}) });
const currency = () => ApiProperty({ type: String, pattern: '^[A-Z]{3}$', example: 'USD' });
const settlementId = (description: string, nullable = false) =>
  ApiProperty({
    type: String,
    pattern: SETTLEMENT_ID_PATTERN_TEXT,
    description,
    ...(nullable ? { nullable } : {}),
  });

export class RunningBalances {
  @signed('Net proceeds not yet cleared')
  pending!: string;

  @signed('Available for new payouts and settlements')
  available!: string;

  @signed('Committed to uncompleted payouts including fees')
  customer_payout_holds!: string;

  @signed('Held for settlements under way')
  merchant_settlement_holds!: string;
}

/** One money movement of a ledger. */
export class BalanceTransaction {
  @ApiProperty({ type: String, pattern: TRANSACTION_ID_PATTERN_TEXT, description: 'Stable across rebuilds' })
  id!: string;

  @ApiProperty({ type: String, enum: TRANSACTION_TYPES })
  type!: string;

  @currency()
  currency!: string;

  @signed('Signed amount of the movement')
  amount!: string;

  @signed('Fee part of the movement (a payout fee; 0.00 for the others)')
  fee!: string;

  @signed(
    'Effect on pending + available; the sum over a ledger is pending + available. A paid payout has net 0.00 (its money had already left available when it was reserved)',
  )
  net!: string;

  @ApiProperty({
    type: String,
    enum: TRANSACTION_STATUSES,
    description:
      'Payments and their fees are `pending` until they clear, then `available`; a settlement is `in_transit`, then `paid` or `failed`; a paid payout is `paid`',
  })
  status!: string;

  @time('When a payment clears; null for other movements', true)
  available_on!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The checkout order of a payment and its fee',
  })
  order_id!: number | null;

  @ApiProperty({ type: String, nullable: true, pattern: PAYOUT_ID_PATTERN_TEXT })
  payout_id!: string | null;

  @settlementId('The settlement a settlement or settlement_failed row belongs to', true)
  settlement_id!: string | null;

  @settlementId('The settlement that covers this movement; null until one does', true)
  included_in_settlement!: string | null;

  @ApiProperty({ type: String, description: "What happened; an adjustment's reason, a release's cause" })
  description!: string;

  @time('When the movement happened')
  created_at!: string;

  @ApiProperty({ type: RunningBalances, description: 'The ledger right after this movement' })
  running_balances!: RunningBalances;
}

class Paged {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Matches across all pages' })
  total!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 200, description: 'Page size returned' })
  limit!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  offset!: number;
}

export class ListBalanceTransactionsResponse extends Paged {
  @ApiProperty({ type: [BalanceTransaction], description: 'Newest first' })
  data!: BalanceTransaction[];
}

/** Money to the merchant's bank. */
export class SettlementView {
  @settlementId('Settlement id')
  id!: string;

  @currency()
  currency!: string;

  @ApiProperty({ type: String, pattern: '^(0|[1-9]\\d{0,14})\\.\\d{2}$', example: '132.75' })
  amount!: string;

  @ApiProperty({ type: String, enum: SETTLEMENT_STATUSES })
  status!: string;

  @ApiProperty({ type: String, nullable: true, description: "The rail's reason when it failed" })
  failure_reason!: string | null;

  @ApiProperty({ type: String, enum: ['daily', 'manual'] })
  trigger!: string;

  @ApiProperty({
    type: String,
    pattern: '^(0|[1-9]\\d{0,14})\\.\\d{2}$',
    description: 'The retained target kept back when it started',
  })
  retained_target!: string;

  @time('When it started')
  created_at!: string;

  @time('When the rail paid it', true)
  paid_at!: string | null;

  @time('When the rail failed it', true)
  failed_at!: string | null;
}

export class ListSettlementsResponse extends Paged {
  @ApiProperty({ type: [SettlementView], description: 'Newest first' })
  data!: SettlementView[];
}

export class SettlementWithTransactions extends SettlementView {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many balance transactions it covers' })
  transactions_total!: number;

  @ApiProperty({
    type: [BalanceTransaction],
    description:
      'The balance transactions it covers, newest first, at most 200; the rest page through GET /api/balance/transactions?settlement_id=',
  })
  transactions!: BalanceTransaction[];
}
