import { isDeliverableEmailAddress, PAYOUT_TEXT_LIMITS as MAX } from '@payouts/domain';
import { CreatePayoutDto, MONEY_PATTERN } from './create-payout.dto';

/** Text whose length is its character count for every rule (validator.js counts some pairs as one). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The fields a common body may have; any other field sends it to the DTO's rules. */
const COMMON_FIELDS = new Set([
  'amount',
  'merchant_reference',
  'delivery',
  'currency',
  'customer_email',
  'description',
  'case_reference',
  'original_payment_id',
]);

/**
 * The common Create body, a link payout in plain ASCII text, accepted without class-transformer and
 * class-validator, which took about 7% of the gateway's CPU per create under bench:api. It only
 * ever accepts: a body it is not sure of (a redirect, a missing or odd field, any non-ASCII text)
 * gets undefined and goes to the DTO's rules, which alone word every refusal. So what it accepts is
 * a subset of what the DTO accepts (a test compares the two on generated bodies), and it returns the
 * body itself, as the DTO's pipe does (`transform: false`).
 */
export function acceptedCommonCreateBody(body: unknown): CreatePayoutDto | undefined {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype) {
    return undefined;
  }
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!COMMON_FIELDS.has(key)) return undefined;
  const accepted =
    typeof fields.amount === 'string' &&
    MONEY_PATTERN.test(fields.amount) &&
    isText(fields.merchant_reference, MAX.merchant_reference) &&
    fields.delivery === 'link' &&
    (fields.currency === undefined || fields.currency === 'USD') &&
    isText(fields.customer_email, MAX.customer_email) &&
    isDeliverableEmailAddress(fields.customer_email) &&
    isOptionalText(fields.description, MAX.description) &&
    isOptionalText(fields.case_reference, MAX.case_reference) &&
    isOptionalText(fields.original_payment_id, MAX.original_payment_id);
  return accepted ? (body as CreatePayoutDto) : undefined;
}

function isText(value: unknown, maxLength: number): value is string {
  return (
    typeof value === 'string' && value.length >= 1 && value.length <= maxLength && PRINTABLE_ASCII.test(value)
  );
}

/** Left out or null (the DTO's IsOptional skips both), or text. */
function isOptionalText(value: unknown, maxLength: number): boolean {
  return value === undefined || value === null || isText(value, maxLength);
}
