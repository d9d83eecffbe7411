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

const MONEY_PATTERN = /^(0|[1-9]\d{0,14})(\.\d{1,2})?$/;
const money = (field: string) =>
  Matches(MONEY_PATTERN, {
    message: `${field} must be a decimal string with at most 2 decimal places`,
    context: { code: 'invalid_amount' },
  });
const ENVIRONMENTS = ['production', 'sandbox'];
const environment = () => IsIn(ENVIRONMENTS, { message: 'environment must be "production" or "sandbox"' });

export class CreateAccountDto {
  @IsString() @Length(1, 200) name!: string;
  @IsString()
  @Length(2, 2, { message: 'region must be a two-letter country code' })
  @Matches(/^[A-Z]{2}$/, { message: 'region must be a two-letter country code such as US' })
  region!: string;
}

export class PayoutsApprovalDto {
  @IsBoolean({ message: 'approved must be true or false' }) approved!: boolean;
}

export class CreditFundsDto {
  @environment() environment!: 'production' | 'sandbox';
  @IsString({ message: 'amount must be a decimal string', context: { code: 'invalid_amount' } })
  @money('amount')
  amount!: string;
  @IsOptional() @IsString() @Length(1, 191) reference?: string;
}

export class LimitsDto {
  @environment() environment!: 'production' | 'sandbox';
  @IsString({ context: { code: 'invalid_amount' } }) @money('fee_per_payout') fee_per_payout!: string;
  @IsString({ context: { code: 'invalid_amount' } }) @money('min_payout') min_payout!: string;
  @IsString({ context: { code: 'invalid_amount' } }) @money('max_payout') max_payout!: string;
  @IsString({ context: { code: 'invalid_amount' } }) @money('max_open_exposure') max_open_exposure!: string;
  @IsInt({ message: 'max_pending_per_customer must be a whole number' })
  @Min(1)
  @Max(1_000_000)
  max_pending_per_customer!: number;
}

export class PayoutsEnabledDto {
  @environment() environment!: 'production' | 'sandbox';
  @IsBoolean({ message: 'enabled must be true or false' }) enabled!: boolean;
}

export class IssueCredentialDto {
  @IsIn(['checkout', 'payout'], { message: 'kind must be "checkout" or "payout"' }) kind!:
    'checkout' | 'payout';
  @environment() environment!: 'production' | 'sandbox';
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
  @environment() environment!: 'production' | 'sandbox';
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @Length(1, 2048, { each: true }) origins!: string[];
}
