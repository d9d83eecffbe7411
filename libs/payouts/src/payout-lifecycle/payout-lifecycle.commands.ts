import { Command } from '@nestjs/cqrs';
import type { PlannedRow } from '@payouts/write-side';
import { PayoutState, ReceivingMethod } from '@payouts/domain';

/**
 * Commands that move a payout after creation: the recipient's (hosted pages), the worker's and the
 * operator's. None is scoped to a merchant account: their callers found the payout by a token, a
 * durable job or the operator's authority, never by a merchant credential.
 */

/** The recipient confirmed a method (awaiting_choice → processing, accepted_at set). */
export class ConfirmPayoutCommand extends Command<PayoutState> {
  constructor(
    readonly payoutId: string,
    readonly selectedMethod: ReceivingMethod,
    /** Written in the confirm's own commit: the pages seal the confirmed receiving details there. */
    readonly sealDetails?: PlannedRow,
  ) {
    super();
  }
}

/** The browser arrived with a redirect handoff: it can never be used again. */
export class ConsumeRedirectHandoffCommand extends Command<PayoutState> {
  constructor(
    readonly payoutId: string,
    readonly sessionId: string,
  ) {
    super();
  }
}

/** The float cannot cover the payout yet: it stays processing with safe_reason awaiting_float. */
export class MarkAwaitingFloatCommand extends Command<PayoutState> {
  constructor(readonly payoutId: string) {
    super();
  }
}

/** The rail (or a risk rule) holds the payout until the operator decides (processing → review_required). */
export class FlagForReviewCommand extends Command<PayoutState> {
  constructor(
    readonly payoutId: string,
    readonly reason: string,
  ) {
    super();
  }
}

/** Operator: approve (→ processing, sent) or reject (→ failed, money returned) a payout under review. */
export class DecideReviewCommand extends Command<PayoutState> {
  constructor(
    readonly payoutId: string,
    readonly decision: 'approve' | 'reject',
  ) {
    super();
  }
}

/** The rail paid the recipient: receipt recorded, amount + fee settled, the float paid out. */
export class RecordPayoutPaidCommand extends Command<PayoutState> {
  constructor(
    readonly payoutId: string,
    readonly receiptReference: string,
  ) {
    super();
  }
}

/** The payout failed: amount + fee return to the merchant's balance and its float to the float. */
export class FailPayoutCommand extends Command<PayoutState> {
  constructor(
    readonly payoutId: string,
    /** Shown to the merchant as safe_reason: a short code, never the recipient's details. */
    readonly reason: string,
  ) {
    super();
  }
}

/** Fired by the expiry timer: an unclaimed payout past payout_expires_at expires, its money returns. */
export class ExpirePayoutCommand extends Command<PayoutState> {
  constructor(readonly payoutId: string) {
    super();
  }
}
