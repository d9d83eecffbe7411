import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MONEY_PATTERN_TEXT } from './payout.schemas';

const ENVIRONMENTS = ['production', 'sandbox'];
const SCOPES = ['payouts:read', 'payouts:write'];
const environment = () => ApiProperty({ type: String, enum: ENVIRONMENTS });
const money = () => ApiProperty({ type: String, pattern: MONEY_PATTERN_TEXT, example: '100.00' });

export class CreateAccountResponse {
  @ApiProperty({ type: String })
  account_id!: string;

  @ApiProperty({
    type: String,
    pattern: '^adm_',
    description: "The account administrator's token, shown once",
  })
  admin_token!: string;
}

export class PayoutsApprovalResponse {
  @ApiProperty({ type: String })
  account_id!: string;

  @ApiProperty({ type: Boolean })
  payouts_approved!: boolean;
}

export class CreditFundsResponse {
  @ApiProperty({ type: String })
  account_id!: string;

  @environment()
  environment!: string;

  @money()
  credited!: string;

  @ApiProperty({ type: String, description: 'The reason recorded with the credit' })
  reason!: string;

  @ApiProperty({ type: 'integer', description: "The account ledger's version after the credit" })
  ledger_version!: number;
}

export class LedgerLimits {
  @money()
  fee_per_payout!: string;

  @money()
  min_payout!: string;

  @money()
  max_payout!: string;

  @money()
  max_open_exposure!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1_000_000 })
  max_pending_per_customer!: number;
}

export class LimitsResponse {
  @ApiProperty({ type: String })
  account_id!: string;

  @environment()
  environment!: string;

  @ApiProperty({ type: LedgerLimits })
  limits!: LedgerLimits;
}

export class PayoutsEnabledResponse {
  @environment()
  environment!: string;

  @ApiProperty({ type: Boolean })
  enabled!: boolean;
}

/** What every view of a credential shows. */
class CredentialFields {
  @ApiProperty({ type: String })
  credential_id!: string;

  @ApiProperty({ type: String, enum: ['checkout', 'payout'] })
  kind!: string;

  @environment()
  environment!: string;

  @ApiProperty({ type: String, enum: SCOPES, isArray: true })
  scopes!: string[];
}

export class IssuedCredentialResponse extends CredentialFields {
  @ApiProperty({
    type: String,
    description: 'The Bearer token (prefix names kind and environment, e.g. pk_test_), shown once',
  })
  token!: string;

  @ApiPropertyOptional({ type: String, description: "A checkout credential's API secret, shown once" })
  secret?: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at!: string;
}

export class CredentialSummary extends CredentialFields {
  @ApiProperty({ type: String, description: 'The visible start of the token; never the token itself' })
  token_hint!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revoked_at!: string | null;
}

export class CredentialListResponse {
  @ApiProperty({ type: [CredentialSummary] })
  data!: CredentialSummary[];
}

export class RevokedCredentialResponse {
  @ApiProperty({ type: String })
  credential_id!: string;

  @ApiProperty({ type: Boolean, enum: [true] })
  revoked!: boolean;
}

export class ReturnUrlOriginsResponse {
  @environment()
  environment!: string;

  @ApiProperty({
    type: String,
    format: 'uri',
    isArray: true,
    description: 'Normalised origins, no duplicates',
  })
  origins!: string[];
}

export class SandboxClockResponse {
  @ApiProperty({ type: String, format: 'date-time', description: 'The sandbox time after the advance' })
  sandbox_now!: string;

  @ApiProperty({
    type: 'integer',
    description: 'How far the sandbox now runs ahead of real time, in seconds',
  })
  offset_seconds!: number;
}

export class FloatResponse {
  @environment()
  environment!: string;

  @money()
  topped_up!: string;

  @ApiProperty({
    type: String,
    pattern: MONEY_PATTERN_TEXT,
    example: '100.00',
    description: 'What confirmed payouts can still be sent from; queued payouts go when it covers them',
  })
  available!: string;

  @ApiProperty({
    type: String,
    pattern: MONEY_PATTERN_TEXT,
    example: '0.00',
    description: 'Set aside for payouts on their way through the rail',
  })
  reserved!: string;

  @money()
  paid_out!: string;

  @ApiProperty({ type: 'integer', description: "The float stream's version after the top-up" })
  float_version!: number;
}
