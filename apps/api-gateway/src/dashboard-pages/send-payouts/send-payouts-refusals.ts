import { DomainError } from '@payouts/domain';
import { ApiError, OverloadedError, toApiError } from '@payouts/http';
import type { IdempotentResult } from '@payouts/idempotency';

/** A refusal as a page shows it: the API's code, field (when it names one) and message. */
export interface PageRefusal {
  status: number;
  code: string;
  message: string;
  param?: string;
}

/** What each refusal means to the person at the form, said before the API's own message. */
const LEADS: Readonly<Record<string, string>> = {
  invalid_amount: 'Check the amount.',
  invalid_request: 'Check the form.',
  unsupported_currency: 'Payouts are sent in USD only.',
  destination_not_accepted: 'The recipient chooses where to be paid.',
  amount_out_of_range: "The amount is outside this account's payout limits.",
  insufficient_funds: 'The balance is not enough for this payout (amount plus fee).',
  exposure_limit_exceeded: "This payout would take the open payouts over the account's limit.",
  customer_pending_limit: 'This recipient already has as many pending payouts as allowed.',
  duplicate_merchant_reference: 'Another payout already has this merchant reference.',
  balance_unavailable: 'The balance cannot be calculated right now, so no payout can be created.',
  not_cancellable: 'This payout can no longer be cancelled.',
  not_resumable: 'This payout has ended.',
  invalid_transition: 'The recipient has already confirmed this payout.',
};

/**
 * Refusals whose API message speaks of the HTTP API (headers, credentials) or adds nothing: the
 * page says what happened and what to do instead.
 */
const PAGE_WORDS: Readonly<Record<string, string>> = {
  payouts_disabled:
    'Payouts are switched off for this environment, so no payout can be created or changed here.',
  payouts_not_approved: 'This account is not approved for payouts yet: the service operator approves it.',
  wrong_delivery: 'This payout has no claim link: it is a redirect payout.',
  idempotency_key_required: 'This form has expired. Reload the page and send it again.',
  idempotency_key_reused: 'This form was already sent with other values. Check the form and send it again.',
  idempotency_key_in_progress: 'This form is still being handled. Wait a moment, then reload the page.',
  attempt_unresolved:
    'It is not known yet whether this worked. Send the form again: it will not be done twice.',
  concurrent_update: 'The payout changed at the same moment. Send the form again.',
  overloaded: 'The service is busy. Send the form again in a moment.',
  service_unavailable: 'The service is busy. Send the form again in a moment.',
};

/** The refusal's sentence on the page: what it means, then (where it helps) the API's message. */
export function refusalText(refusal: PageRefusal): string {
  // A malformed key is refused as invalid_request on the Idempotency-Key header.
  if (refusal.param === 'Idempotency-Key') return PAGE_WORDS.idempotency_key_required!;
  const own = PAGE_WORDS[refusal.code];
  if (own) return own;
  const lead = LEADS[refusal.code];
  return lead ? `${lead} ${sentence(refusal.message)}` : sentence(refusal.message);
}

function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The refusal behind an error thrown by a shared command function (the API's refusals, in the
 * API's words); anything else is not a refusal and is thrown again, for the error page.
 */
export function refusalOf(error: unknown): PageRefusal {
  if (!(error instanceof ApiError || error instanceof DomainError || error instanceof OverloadedError)) {
    throw error;
  }
  const api = toApiError(error);
  return {
    status: api.status,
    code: api.code,
    message: api.message,
    ...(api.param ? { param: api.param } : {}),
  };
}

/** A replayed answer that was a refusal (a key keeps its refusal), or null for a success. */
export function storedRefusal(result: IdempotentResult): PageRefusal | null {
  if (result.status < 400) return null;
  const error = (result.body as { error?: { code?: unknown; message?: unknown; param?: unknown } } | null)
    ?.error;
  return {
    status: result.status,
    code: typeof error?.code === 'string' ? error.code : 'invalid_request',
    message: typeof error?.message === 'string' ? error.message : 'the request was refused',
    ...(typeof error?.param === 'string' ? { param: error.param } : {}),
  };
}

/**
 * Whether the form's key can be sent again: nothing was stored for it (in flight, contention,
 * overload) or its outcome is unknown (a retry with the same key finishes it). Any other refusal is
 * kept for the key, so the form comes back with a new one (docs/design.md#idempotency).
 */
export function keyReusable(refusal: PageRefusal): boolean {
  return (
    refusal.status >= 500 ||
    refusal.code === 'idempotency_key_in_progress' ||
    refusal.code === 'concurrent_update'
  );
}

const IN_PROGRESS_WAIT_MS = 100;
const IN_PROGRESS_ATTEMPTS = 50;

/**
 * Runs an idempotent command for a form; while an earlier send of the same form is still under
 * way (a double click), waits for it (up to 5 s) so both sends end on its outcome.
 */
export async function afterEarlierSend(
  run: () => Promise<IdempotentResult>,
): Promise<IdempotentResult | PageRefusal> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await run();
      return storedRefusal(result) ?? result;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal.code !== 'idempotency_key_in_progress' || attempt >= IN_PROGRESS_ATTEMPTS) return refusal;
      await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_WAIT_MS));
    }
  }
}

export function isRefusal(outcome: IdempotentResult | PageRefusal): outcome is PageRefusal {
  return 'code' in outcome;
}
