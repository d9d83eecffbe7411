import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_SANDBOX_ADVANCE_SECONDS } from '@payouts/clock';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { ENVIRONMENTS } from '@payouts/domain';
import type { Environment } from '@payouts/domain';

const MONEY_PATTERN = /^(0|[1-9]\d{0,14})(\.\d{1,2})?$/;
const money = (field: string) =>
  Matches(MONEY_PATTERN, {
    message: `${field} must be a decimal string with at most 2 decimal places`,
    context: { code: 'invalid_amount' },
  });
const environment = () => IsIn(ENVIRONMENTS, { message: 'environment must be "production" or "sandbox"' });
const moneyDoc = (description?: string) =>
  ApiProperty({ type: String, pattern: MONEY_PATTERN.source, example: '100.00', description });
const environmentDoc = () => ApiProperty({ type: String, enum: ENVIRONMENTS });
/** At least one character that is not white space: `"   "` passes a length check but names nothing. */
const NOT_BLANK = /\S/;
const notBlank = (field: string) =>
  Matches(NOT_BLANK, { message: `${field} must contain a character other than white space` });

export class CreateAccountDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 200, pattern: NOT_BLANK.source })
  @notBlank('name')
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  @IsString({ message: 'name must be a string' })
  name!: string;
  @ApiProperty({ type: String, pattern: '^[A-Z]{2}$', example: 'US', description: 'Two-letter country code' })
  @IsString()
  @Length(2, 2, { message: 'region must be a two-letter country code' })
  @Matches(/^[A-Z]{2}$/, { message: 'region must be a two-letter country code such as US' })
  region!: string;
}

export class PayoutsApprovalDto {
  @ApiProperty({ type: Boolean })
  @IsBoolean({ message: 'approved must be true or false' })
  approved!: boolean;
}

/** `amount` of an operator's money movement: a decimal string, refused as invalid_amount otherwise. */
const amountField = (description: string) =>
  applyDecorators(
    moneyDoc(description),
    IsString({ message: 'amount must be a decimal string', context: { code: 'invalid_amount' } }),
    money('amount'),
  );

/** An operator's money movement in one environment, with a reference for the books. */
abstract class OperatorMoneyMovementDto {
  @environmentDoc() @environment() environment!: Environment;
  abstract amount: string;
  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 191,
    pattern: NOT_BLANK.source,
    default: 'operator',
  })
  @IsOptional()
  @notBlank('reference')
  @Length(1, 191, { message: 'reference must be 1 to 191 characters' })
  @IsString({ message: 'reference must be a string' })
  reference?: string;
}

export class CreditFundsDto extends OperatorMoneyMovementDto {
  @amountField('Matured funds to credit')
  amount!: string;
  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 200,
    pattern: NOT_BLANK.source,
    default: 'operator credit',
    description:
      'Why the operator credits the account: the manual adjustment as the merchant and the auditor read it',
  })
  @IsOptional()
  @notBlank('reason')
  @Length(1, 200, { message: 'reason must be 1 to 200 characters' })
  @IsString({ message: 'reason must be a string' })
  reason?: string;
}

export class LimitsDto {
  @environmentDoc() @environment() environment!: Environment;
  @moneyDoc()
  @IsString({ context: { code: 'invalid_amount' } })
  @money('fee_per_payout')
  fee_per_payout!: string;
  @moneyDoc()
  @IsString({ context: { code: 'invalid_amount' } })
  @money('min_payout')
  min_payout!: string;
  @moneyDoc()
  @IsString({ context: { code: 'invalid_amount' } })
  @money('max_payout')
  max_payout!: string;
  @moneyDoc()
  @IsString({ context: { code: 'invalid_amount' } })
  @money('max_open_exposure')
  max_open_exposure!: string;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1_000_000 })
  @IsInt({ message: 'max_pending_per_customer must be a whole number' })
  @Min(1)
  @Max(1_000_000)
  max_pending_per_customer!: number;
}

export class PayoutsEnabledDto {
  @environmentDoc() @environment() environment!: Environment;
  @ApiProperty({ type: Boolean })
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;
}

export class IssueCredentialDto {
  @ApiProperty({ type: String, enum: ['checkout', 'payout'] })
  @IsIn(['checkout', 'payout'], { message: 'kind must be "checkout" or "payout"' })
  kind!: 'checkout' | 'payout';
  @environmentDoc() @environment() environment!: Environment;
  @ApiPropertyOptional({
    type: String,
    enum: ['payouts:read', 'payouts:write'],
    isArray: true,
    maxItems: 2,
    description: 'Payout credentials only; both scopes when left out (or null)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(2)
  @IsIn(['payouts:read', 'payouts:write'], {
    each: true,
    message: 'scopes may hold payouts:read and payouts:write',
  })
  scopes?: ('payouts:read' | 'payouts:write')[];
}

export class ReturnUrlOriginsDto {
  @environmentDoc() @environment() environment!: Environment;
  @ApiProperty({
    type: String,
    isArray: true,
    maxItems: 50,
    maxLength: 2048,
    description:
      'http(s) origins (scheme, host, port), no path or wildcard; a host that `return_url` refuses ' +
      '(an underscore, a trailing dot) is refused here too',
  })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 2048, { each: true })
  origins!: string[];
}

export class SandboxClockDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_SANDBOX_ADVANCE_SECONDS })
  @IsInt({ message: 'advance_seconds must be a whole number of seconds' })
  @Min(1, { message: 'advance_seconds must be at least 1 (the sandbox clock only moves forward)' })
  @Max(MAX_SANDBOX_ADVANCE_SECONDS, {
    message: `advance_seconds must be at most ${MAX_SANDBOX_ADVANCE_SECONDS}`,
  })
  advance_seconds!: number;
}

export class TopUpFloatDto extends OperatorMoneyMovementDto {
  @amountField('Money added to the payout float of the environment')
  amount!: string;
}

export class ReviewDecisionDto {
  @ApiProperty({ type: String, enum: ['approve', 'reject'] })
  @IsIn(['approve', 'reject'], { message: 'decision must be "approve" or "reject"' })
  decision!: 'approve' | 'reject';
}
