import { formatMoney, parseMoney, ZERO_MONEY } from '../money/money';
import { characterCount, hasUnstorableCharacter, UNSTORABLE_TEXT } from '../kernel/characters';
import { DomainError } from '../kernel/domain-error';
import { isDeliverableEmailAddress } from '../kernel/email-address';
import { addMs } from '../kernel/time';
import { handoffExpiresAt } from './payout.access';
import { CreatePayout } from './payout.commands';
import { PAYOUT_SOURCES, PayoutCreated, PayoutEvent, PayoutSource } from './payout.events';
import { PAYOUT_EXPIRY_MS, PAYOUT_TEXT_LIMITS } from './payout.limits';
import { PayoutState } from './payout.state';

type CreateData = CreatePayout['data'];
type TextParam = keyof typeof PAYOUT_TEXT_LIMITS;

/** A new payout: its creation, then its first way in (a claim link or a redirect handoff). */
export function decideCreatePayout(data: CreateData, state: PayoutState, now: Date): PayoutEvent[] {
  if (state.status !== 'none') {
    throw new DomainError('payout_already_exists', `Payout ${data.payoutId} already exists`);
  }
  const amount = parseMoney(data.amount, 'amount');
  if (!amount.gt(ZERO_MONEY))
    throw new DomainError('invalid_amount', 'amount must be greater than 0', 'amount');
  const fee = parseMoney(data.fee, 'fee');
  const merchantReference = requiredText(data.merchantReference, 'merchant_reference');
  const recipient = recipientOf(data);
  const source = sourceOf(data.source);
  const createdAt = now.toISOString();
  const payoutExpiresAt = addMs(now, PAYOUT_EXPIRY_MS[data.delivery]);

  const created: PayoutCreated = {
    type: 'PayoutCreated',
    data: {
      payoutId: data.payoutId,
      accountId: data.accountId,
      environment: data.environment,
      amount: formatMoney(amount),
      fee: formatMoney(fee),
      totalReserved: formatMoney(amount.plus(fee)),
      currency: 'USD',
      merchantReference,
      delivery: data.delivery,
      // Listed, not spread (docs/performance.md#allocation-on-the-hot-path).
      customerEmail: recipient.customerEmail,
      customerId: recipient.customerId,
      returnUrl: recipient.returnUrl,
      description: optionalText(data.description, 'description'),
      caseReference: optionalText(data.caseReference, 'case_reference'),
      originalPaymentId: optionalText(data.originalPaymentId, 'original_payment_id'),
      source,
      createdAt,
      payoutExpiresAt: payoutExpiresAt.toISOString(),
    },
  };
  const { id, tokenHash } = data.access;
  if (data.delivery === 'link') {
    return [
      created,
      {
        type: 'ClaimLinkIssued',
        data: {
          payoutId: data.payoutId,
          linkId: id,
          tokenHash,
          rotated: false,
          issuedAt: createdAt,
          expiresAt: payoutExpiresAt.toISOString(),
        },
      },
    ];
  }
  return [
    created,
    {
      type: 'RedirectSessionStarted',
      data: {
        payoutId: data.payoutId,
        sessionId: id,
        tokenHash,
        startedAt: createdAt,
        expiresAt: handoffExpiresAt(now, payoutExpiresAt),
      },
    },
  ];
}

/** Where the payout comes from: `api` unless the caller names one of PAYOUT_SOURCES. */
function sourceOf(source: PayoutSource | undefined): PayoutSource {
  if (source === undefined) return 'api';
  if (!(PAYOUT_SOURCES as readonly unknown[]).includes(source)) {
    throw new DomainError('invalid_request', `source must be one of ${PAYOUT_SOURCES.join(', ')}`);
  }
  return source;
}

type Recipient = Pick<PayoutCreated['data'], 'customerEmail' | 'customerId' | 'returnUrl'>;

/** Link payouts reach the recipient by e-mail; redirect payouts are bound to a customer for good. */
function recipientOf(data: CreateData): Recipient {
  const customerEmail = optionalText(data.customerEmail, 'customer_email');
  // The mailer's rule: a payout whose code e-mail could never be sent would hold its money for nothing.
  if (customerEmail !== null && !isDeliverableEmailAddress(customerEmail)) {
    throw new DomainError(
      'invalid_request',
      'customer_email is not a valid e-mail address',
      'customer_email',
    );
  }
  switch (data.delivery) {
    case 'link':
      if (customerEmail === null) throw missing('customer_email', 'link');
      // Refused rather than ignored: a merchant sending them expects a binding that link payouts lack.
      if (isPresent(data.customerId)) throw onlyForRedirect('customer_id');
      if (isPresent(data.returnUrl)) throw onlyForRedirect('return_url');
      return { customerEmail, customerId: null, returnUrl: null };
    case 'redirect': {
      const customerId = optionalText(data.customerId, 'customer_id');
      if (customerId === null) throw missing('customer_id', 'redirect');
      if (typeof data.returnUrl !== 'string' || data.returnUrl === '')
        throw missing('return_url', 'redirect');
      if (hasUnstorableCharacter(data.returnUrl)) throw unstorable('return_url');
      return { customerEmail, customerId, returnUrl: data.returnUrl };
    }
    default: {
      const _never: never = data.delivery;
      throw new DomainError(
        'invalid_request',
        `delivery must be "link" or "redirect", not ${String(_never)}`,
        'delivery',
      );
    }
  }
}

function requiredText(value: string | null | undefined, param: TextParam): string {
  const text = optionalText(value, param);
  if (text === null) throw new DomainError('invalid_request', `${param} is required`, param);
  return text;
}

function optionalText(value: string | null | undefined, param: TextParam): string | null {
  if (!isPresent(value)) return null;
  if (typeof value !== 'string' || value === '') {
    throw new DomainError('invalid_request', `${param} must be a non-empty string`, param);
  }
  if (characterCount(value) > PAYOUT_TEXT_LIMITS[param]) {
    throw new DomainError(
      'invalid_request',
      `${param} is longer than ${PAYOUT_TEXT_LIMITS[param]} characters`,
      param,
    );
  }
  if (hasUnstorableCharacter(value)) throw unstorable(param);
  return value;
}

function unstorable(param: string): DomainError {
  return new DomainError('invalid_request', `${param} ${UNSTORABLE_TEXT}`, param);
}

function isPresent<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

function missing(param: string, delivery: string): DomainError {
  return new DomainError('invalid_request', `${param} is required for ${delivery} delivery`, param);
}

function onlyForRedirect(param: string): DomainError {
  return new DomainError('invalid_request', `${param} applies only to redirect delivery`, param);
}
