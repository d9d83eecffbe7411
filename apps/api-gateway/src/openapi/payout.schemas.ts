import { PAYOUT_STATUSES } from '@payouts/domain';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Decimal string, no sign or exponent, at most two decimals (as CreatePayoutDto accepts it). */
export const MONEY_PATTERN_TEXT = '^(0|[1-9]\\d{0,14})(\\.\\d{1,2})?$';
export const PAYOUT_ID_PATTERN_TEXT = '^po_[0-9a-f]{24}$';

const money = (description: string) =>
  ApiProperty({ type: String, pattern: MONEY_PATTERN_TEXT, example: '25.00', description });
const time = (description: string, nullable = false) =>
  ApiProperty({ type: String, format: 'date-time', description, ...(nullable ? { nullable } : {}) });
const nullableText = (description: string) => ApiProperty({ type: String, nullable: true, description });

/** Fields Create Payout answers with and the merchant view (Get Payout) shares. */
class PayoutFigures {
  @ApiProperty({ type: String, pattern: PAYOUT_ID_PATTERN_TEXT, example: 'po_0123456789abcdef01234567' })
  payout_id!: string;

  @ApiProperty({ type: String, enum: PAYOUT_STATUSES, description: 'Payout status' })
  status!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1 when the payout is created' })
  status_version!: number;

  @money('Payout amount')
  amount!: string;

  @money('Fee charged on top of the amount')
  fee!: string;

  @money('Amount plus fee')
  total_reserved!: string;

  @ApiProperty({ type: String, enum: ['USD'] })
  currency!: string;

  @ApiProperty({ type: Boolean, description: '`true` after a cancel, expiry or failure (money returned)' })
  funds_released!: boolean;
}

/** The merchant view of a payout (`GET /api/payout/{payout_id}`): exactly these fields. */
export class PayoutMerchantView extends PayoutFigures {
  @ApiProperty({ type: String, maxLength: 191, description: "The merchant's own id" })
  merchant_reference!: string;

  @nullableText('Bound customer (redirect delivery); null for link payouts')
  customer_id!: string | null;

  @ApiProperty({ type: String, enum: ['link', 'redirect'] })
  delivery!: string;

  @ApiProperty({
    type: String,
    enum: ['api', 'dashboard'],
    example: 'api',
    description: 'Where the payout was created from: `api`, or `dashboard` (the Send payouts form)',
  })
  source!: string;

  @nullableText("The merchant's ticket id")
  case_reference!: string | null;

  @nullableText('The method the recipient chose')
  selected_method!: string | null;

  @nullableText('Reason text for the current state, e.g. `awaiting_float`')
  safe_reason!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: '^rcpt_',
    description: 'Receipt id, present once paid',
  })
  receipt_reference!: string | null;

  @time('Creation time')
  created_at!: string;

  @time('Time the recipient confirmed; null until then', true)
  accepted_at!: string | null;

  @time('Deadline for the recipient')
  payout_expires_at!: string;

  @time('Last change')
  updated_at!: string;
}

/** Create Payout's answer (`POST /api/payout/create`). */
export class CreatePayoutResponse extends PayoutFigures {
  @ApiProperty({
    type: String,
    format: 'uri',
    nullable: true,
    description:
      'Where the recipient goes (claim page or one-time handoff). Returned once: null in a replay with the same Idempotency-Key',
  })
  payout_url!: string | null;

  @time('Expiry of the claim link or handoff')
  access_link_expires_at!: string;

  @time('Deadline for the recipient')
  payout_expires_at!: string;
}

/** List Payouts' answer (`GET /api/payout/list`). */
export class ListPayoutsResponse {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Matches across all pages' })
  total!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 200, description: 'Page size returned' })
  limit!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  offset!: number;

  @ApiProperty({ type: [PayoutMerchantView], description: 'Newest first' })
  data!: PayoutMerchantView[];
}

export class BalanceLimits {
  @money('Live fee per payout')
  fee_per_payout!: string;

  @money('Smallest payout amount')
  min_payout!: string;

  @money('Largest payout amount')
  max_payout!: string;

  @ApiProperty({
    type: String,
    pattern: MONEY_PATTERN_TEXT,
    nullable: true,
    description: 'Cap on open exposure; null when none is configured',
  })
  max_open_exposure!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Cap on pending payouts per customer; null when none is configured',
  })
  max_pending_per_customer!: number | null;
}

/** Get Payout Balance when the balance can be calculated (`GET /api/payout/balance`). */
export class BalanceResponse {
  @ApiProperty({ type: String, enum: ['USD'] })
  currency!: string;

  @ApiProperty({ type: BalanceLimits })
  limits!: BalanceLimits;

  @money('Net proceeds of paid orders not yet cleared')
  pending!: string;

  @money(
    'Cleared funds owed to the merchant, before holds: available + customer_payout_holds + merchant_settlement_holds',
  )
  matured!: string;

  @money('What a new payout (amount plus fee) can be created against')
  available_for_new_commitments!: string;

  @money('Held for a settlement under way')
  merchant_settlement_holds!: string;

  @money('Committed to uncompleted payouts including fees')
  customer_payout_holds!: string;

  @money('Paid out to customers so far, including fees')
  customer_payouts_settled!: string;

  @money('Amount the administrator asked to keep back from automatic settlement')
  retained_target!: string;

  @money('Estimated amount of the next settlement: available above retained_target, at least 0.00')
  estimated_next_settlement!: string;

  @time("When the next automatic settlement runs (the environment's clock)")
  next_settlement_at!: string;
}

/** Get Payout Balance when the balance cannot be calculated; Create Payout then answers `balance_unavailable`. */
export class BalanceUnavailableResponse {
  @ApiProperty({ type: String, enum: ['USD'] })
  currency!: string;

  @ApiProperty({ type: 'null', nullable: true, description: 'Always null here' })
  available!: null;

  @ApiProperty({ type: String, description: 'Why the balance cannot be calculated' })
  reason!: string;
}

/** Get or Rotate Claim Link: optional body. */
export class ClaimLinkRequest {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'true issues a replacement link and invalidates the old one, its codes and sessions',
  })
  rotate?: boolean;
}

export class ClaimLinkResponse {
  @ApiProperty({ type: String, pattern: PAYOUT_ID_PATTERN_TEXT })
  payout_id!: string;

  @ApiProperty({
    type: String,
    format: 'uri',
    description: 'The claim link; a replay with the same Idempotency-Key answers the same link',
  })
  url!: string;

  @ApiProperty({ type: Boolean })
  rotated!: boolean;

  @time('Expiry of the claim link')
  access_link_expires_at!: string;
}

export class RedirectSessionRequest {
  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: 191,
    description: "Must equal the payout's bound customer_id",
  })
  customer_id!: string;
}

export class RedirectSessionResponse {
  @ApiProperty({ type: String, pattern: PAYOUT_ID_PATTERN_TEXT })
  payout_id!: string;

  @ApiProperty({
    type: String,
    format: 'uri',
    description:
      'The one-time handoff URL (10 minutes); a replay with the same Idempotency-Key answers the same URL',
  })
  payout_url!: string;

  @time('Expiry of the handoff; never after payout_expires_at')
  access_link_expires_at!: string;
}
