import { DomainError } from '../kernel/domain-error';
import { reached } from '../kernel/time';
import { ConfirmPayout, DecideReview, FailPayout, FlagForReview, RecordPayoutPaid } from './payout.commands';
import { PayoutEvent } from './payout.events';
import { RECEIPT_PREFIX } from './payout.limits';
import { FINAL_PAYOUT_STATUSES, isPayoutIn, OPEN_PAYOUT_STATUSES, Payout } from './payout.state';

/** Status changes of an existing payout (docs/design.md#payout-state-machine; review: #review there). */

export function decideConfirm(data: ConfirmPayout['data'], payout: Payout, now: Date): PayoutEvent[] {
  if (payout.status !== 'awaiting_choice') throw cannot('confirm', payout);
  if (reached(now, payout.payoutExpiresAt)) {
    throw new DomainError(
      'invalid_transition',
      `The payout expired at ${payout.payoutExpiresAt}; it can no longer be confirmed`,
    );
  }
  requireText(data.selectedMethod, 'selected_method');
  return [
    {
      type: 'PayoutConfirmed',
      data: { payoutId: payout.payoutId, selectedMethod: data.selectedMethod, acceptedAt: now.toISOString() },
    },
  ];
}

/** Queued until the payout float is topped up; sent automatically afterwards. */
export function decideMarkAwaitingFloat(payout: Payout, now: Date): PayoutEvent[] {
  if (payout.status !== 'processing') throw cannot('mark as awaiting float', payout);
  if (payout.safeReason === 'awaiting_float') return [];
  return [{ type: 'PayoutAwaitingFloat', data: { payoutId: payout.payoutId, at: now.toISOString() } }];
}

/**
 * The float is being set aside for the payout (the worker reserves it in the same append). Only a
 * payout that showed awaiting_float has something to clear; one never queued, or one that already
 * left, writes nothing, so the reservation of every payout can carry this command.
 */
export function decideLeaveFloatQueue(payout: Payout, now: Date): PayoutEvent[] {
  if (payout.status !== 'processing') throw cannot('set float aside for', payout);
  if (payout.safeReason !== 'awaiting_float') return [];
  return [{ type: 'PayoutLeftFloatQueue', data: { payoutId: payout.payoutId, at: now.toISOString() } }];
}

export function decideFlagForReview(data: FlagForReview['data'], payout: Payout, now: Date): PayoutEvent[] {
  if (payout.status !== 'processing') throw cannot('flag for review', payout);
  requireText(data.reason, 'reason');
  return [
    {
      type: 'PayoutReviewRequired',
      data: { payoutId: payout.payoutId, reason: data.reason, at: now.toISOString() },
    },
  ];
}

export function decideReview(data: DecideReview['data'], payout: Payout, now: Date): PayoutEvent[] {
  if (payout.status !== 'review_required') throw cannot('decide a review of', payout);
  const at = now.toISOString();
  switch (data.decision) {
    case 'approve':
      return [{ type: 'PayoutReviewApproved', data: { payoutId: payout.payoutId, at } }];
    case 'reject':
      return [
        {
          type: 'PayoutFailed',
          data: { payoutId: payout.payoutId, reason: 'review_rejected', failedAt: at },
        },
      ];
    default: {
      const _never: never = data.decision;
      throw new DomainError(
        'invalid_request',
        `decision must be "approve" or "reject", not ${String(_never)}`,
        'decision',
      );
    }
  }
}

export function decideRecordPaid(data: RecordPayoutPaid['data'], payout: Payout, now: Date): PayoutEvent[] {
  const receipt = data.receiptReference;
  if (
    typeof receipt !== 'string' ||
    !receipt.startsWith(RECEIPT_PREFIX) ||
    receipt.length === RECEIPT_PREFIX.length
  ) {
    throw new DomainError(
      'invalid_request',
      `receipt_reference must begin "${RECEIPT_PREFIX}"`,
      'receipt_reference',
    );
  }
  // The rail may report the same payment twice; only a different receipt is a contradiction.
  if (payout.status === 'paid' && payout.receiptReference === receipt) return [];
  if (payout.status !== 'processing') throw cannot('record as paid', payout);
  return [
    {
      type: 'PayoutPaid',
      data: { payoutId: payout.payoutId, receiptReference: receipt, paidAt: now.toISOString() },
    },
  ];
}

export function decideFail(data: FailPayout['data'], payout: Payout, now: Date): PayoutEvent[] {
  if (payout.status === 'failed') return [];
  if (!isPayoutIn(payout, OPEN_PAYOUT_STATUSES)) throw cannot('fail', payout);
  requireText(data.reason, 'reason');
  return [
    {
      type: 'PayoutFailed',
      data: { payoutId: payout.payoutId, reason: data.reason, failedAt: now.toISOString() },
    },
  ];
}

export function decideCancel(payout: Payout, now: Date): PayoutEvent[] {
  // Cancelling a payout that already ended without payment returns it unchanged
  // (docs/design.md#payout-state-machine).
  if (isPayoutIn(payout, ['cancelled', 'expired', 'failed'])) return [];
  if (payout.status !== 'awaiting_choice') {
    throw new DomainError(
      'not_cancellable',
      `The payout is ${payout.status}; the recipient has already confirmed`,
    );
  }
  return [{ type: 'PayoutCancelled', data: { payoutId: payout.payoutId, cancelledAt: now.toISOString() } }];
}

/** Fired by a timer, which may fire late or twice. */
export function decideExpire(payout: Payout, now: Date): PayoutEvent[] {
  if (isPayoutIn(payout, FINAL_PAYOUT_STATUSES)) return [];
  if (payout.status !== 'awaiting_choice') throw cannot('expire', payout);
  if (!reached(now, payout.payoutExpiresAt)) {
    throw new DomainError('not_yet_expired', `The payout expires at ${payout.payoutExpiresAt}`);
  }
  return [{ type: 'PayoutExpired', data: { payoutId: payout.payoutId, expiredAt: now.toISOString() } }];
}

function cannot(action: string, payout: Payout): DomainError {
  return new DomainError('invalid_transition', `Cannot ${action} a payout that is ${payout.status}`);
}

function requireText(value: unknown, param: string): void {
  if (typeof value !== 'string' || value === '') {
    throw new DomainError('invalid_request', `${param} must be a non-empty string`, param);
  }
}
