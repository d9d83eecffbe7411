import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { EMAIL_ADDRESS_MAX_LENGTH, isDeliverableEmailAddress, PAYOUT_TEXT_LIMITS } from '@payouts/domain';
import { RETURN_URL_OPTIONS } from './return-url-rule';
import {
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  ValidateBy,
  ValidateIf,
  Equals,
} from 'class-validator';

/** Decimal string, no sign or exponent, at most two decimals (the domain parses it again, strictly). */
export const MONEY_PATTERN = /^(0|[1-9]\d{0,14})(\.\d{1,2})?$/;

/** The longest each text field may be (docs/design.md#limits), in characters; each is at least 1 long. */
const MAX = PAYOUT_TEXT_LIMITS;
const code = (value: string) => ({ context: { code: value } });

/**
 * Create Payout body (`POST /api/payout/create`). Each rule carries the error code it answers with;
 * the rest are `invalid_request` with the field as `param`.
 */
@ApiSchema({
  description:
    'Any other field is refused (`invalid_request`); `destination` and `destination_address` with `destination_not_accepted`.',
})
export class CreatePayoutDto {
  @ApiProperty({
    type: String,
    pattern: MONEY_PATTERN.source,
    example: '25.00',
    description:
      'Decimal string greater than 0, at most 2 decimal places; a JSON number is refused (`invalid_amount`)',
  })
  // The decorator nearest the property is checked first: a JSON number fails IsString.
  @Matches(MONEY_PATTERN, {
    // The pattern has no sign: a negative amount fails here, so the message says what is wanted.
    message: 'amount must be a decimal string greater than 0, with at most 2 decimal places, such as "12.50"',
    ...code('invalid_amount'),
  })
  @IsString({
    message: 'amount must be a decimal string such as "12.50"; a JSON number is refused',
    ...code('invalid_amount'),
  })
  amount!: string;

  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: MAX.merchant_reference,
    description: "The merchant's own id; permanently unique per account",
  })
  @IsString()
  @Length(1, MAX.merchant_reference, {
    message: `merchant_reference must be 1 to ${MAX.merchant_reference} characters`,
  })
  merchant_reference!: string;

  @ApiProperty({ type: String, enum: ['link', 'redirect'] })
  @IsIn(['link', 'redirect'], { message: 'delivery must be "link" or "redirect"' })
  delivery!: 'link' | 'redirect';

  @ApiPropertyOptional({ type: String, enum: ['USD'], default: 'USD' })
  @IsOptional()
  @IsIn(['USD'], { message: 'currency must be USD', ...code('unsupported_currency') })
  currency?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'email',
    maxLength: EMAIL_ADDRESS_MAX_LENGTH,
    example: 'ana+refunds@example.com',
    description:
      'Required for `link` delivery. One bare address that can be mailed: an ASCII local part ' +
      '(no quotes, spaces or display name), a domain with a dot (international names accepted)',
  })
  @ValidateIf((body: CreatePayoutDto) => body.delivery === 'link' || body.customer_email !== undefined)
  // The mailer's own rule (isDeliverableEmailAddress), so a payout is never created for an address
  // the code e-mail cannot be sent to. Checked after the type and length (nearest runs first).
  @ValidateBy(
    { name: 'isDeliverableEmailAddress', validator: { validate: isDeliverableEmailAddress } },
    { message: 'customer_email is not a valid e-mail address' },
  )
  @Length(1, MAX.customer_email, {
    message: `customer_email must be at most ${MAX.customer_email} characters`,
  })
  @IsString({ message: 'customer_email is required for link delivery' })
  customer_email?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: MAX.customer_id,
    description: 'Required for `redirect` delivery; binds the payout to that customer permanently',
  })
  @ValidateIf((body: CreatePayoutDto) => body.delivery === 'redirect' || body.customer_id !== undefined)
  @IsString({ message: 'customer_id is required for redirect delivery' })
  @Length(1, MAX.customer_id, { message: `customer_id must be 1 to ${MAX.customer_id} characters` })
  customer_id?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    description:
      'Required for `redirect` delivery; its origin must be registered for the account (`return_url_not_registered`)',
  })
  @ValidateIf((body: CreatePayoutDto) => body.delivery === 'redirect' || body.return_url !== undefined)
  @IsString({ message: 'return_url is required for redirect delivery' })
  // A copy: validator.js writes its defaults into the options object it is given.
  @IsUrl({ ...RETURN_URL_OPTIONS }, { message: 'return_url must be an absolute http(s) URL' })
  return_url?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: MAX.description,
    description: 'Shown to the recipient; null is the same as left out',
  })
  @IsOptional()
  @IsString()
  @Length(1, MAX.description, { message: `description must be 1 to ${MAX.description} characters` })
  description?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: MAX.case_reference,
    description: 'Never shown to the recipient; null is the same as left out',
  })
  @IsOptional()
  @IsString()
  @Length(1, MAX.case_reference, {
    message: `case_reference must be 1 to ${MAX.case_reference} characters`,
  })
  case_reference?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: MAX.original_payment_id,
    description: 'The payment being refunded; null is the same as left out',
  })
  @IsOptional()
  @IsString()
  @Length(1, MAX.original_payment_id, {
    message: `original_payment_id must be 1 to ${MAX.original_payment_id} characters`,
  })
  original_payment_id?: string;

  // The merchant never supplies a receiving address: the recipient chooses it.
  @Equals(undefined, {
    message: 'destination is not accepted; the recipient chooses where to be paid',
    ...code('destination_not_accepted'),
  })
  destination?: unknown;

  @Equals(undefined, {
    message: 'destination_address is not accepted; the recipient chooses where to be paid',
    ...code('destination_not_accepted'),
  })
  destination_address?: unknown;
}

/** Codes that outrank plain field errors when a body has several problems. */
export const PRIORITY_CODES = ['destination_not_accepted'];
