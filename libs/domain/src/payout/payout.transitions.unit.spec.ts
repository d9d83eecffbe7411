import { DomainErrorCode } from '../kernel/domain-error';
import { DAY_MS, HOUR_MS } from '../kernel/time';
import { deciderSpec } from '../testing/given-when-then';
import { PayoutCommand } from './payout.commands';
import { PayoutStatus } from './payout.events';
import { payoutDecider } from './payout.decide';
import {
  after,
  ALL_STATUSES,
  awaitingFloat,
  confirmed,
  failed,
  historyIn,
  leftFloatQueue,
  iso,
  LINK_EXPIRES_AT,
  openLinkPayout,
  openRedirectPayout,
  paid,
  PAYOUT_ID,
  reviewApproved,
  reviewRequired,
} from '../testing/payout.fixtures';

const { given, outcome, fold } = deciderSpec(payoutDecider);
const NOW = after(3 * HOUR_MS);

const confirm: PayoutCommand = { type: 'ConfirmPayout', data: { selectedMethod: 'bank_transfer' } };
const markAwaitingFloat: PayoutCommand = { type: 'MarkAwaitingFloat', data: {} };
const leaveFloatQueue: PayoutCommand = { type: 'LeaveFloatQueue', data: {} };
const flag: PayoutCommand = { type: 'FlagForReview', data: { reason: 'manual_check' } };
const approve: PayoutCommand = { type: 'DecideReview', data: { decision: 'approve' } };
const reject: PayoutCommand = { type: 'DecideReview', data: { decision: 'reject' } };
const recordPaid = (receiptReference = 'rcpt_1'): PayoutCommand => ({
  type: 'RecordPayoutPaid',
  data: { receiptReference },
});
const fail: PayoutCommand = { type: 'FailPayout', data: { reason: 'rail_rejected' } };
const cancel: PayoutCommand = { type: 'CancelPayout', data: {} };
const expire: PayoutCommand = { type: 'ExpirePayout', data: {} };

describe('Payout transitions (docs/design.md#payout-state-machine)', () => {
  describe('the rows of the transition table', () => {
    it('Cancelling a payout awaiting the choice cancels it and returns principal and fee.', () => {
      const state = given(openLinkPayout)
        .when(cancel, NOW)
        .then([{ type: 'PayoutCancelled', data: { payoutId: PAYOUT_ID, cancelledAt: NOW.toISOString() } }]);
      expect(state).toMatchObject({ status: 'cancelled', fundsReleased: true, statusVersion: 2 });
    });

    it('A payout awaiting the choice expires once payout_expires_at is reached, and its money returns.', () => {
      const now = new Date(LINK_EXPIRES_AT);
      const state = given(openLinkPayout)
        .when(expire, now)
        .then([{ type: 'PayoutExpired', data: { payoutId: PAYOUT_ID, expiredAt: LINK_EXPIRES_AT } }]);
      expect(state).toMatchObject({ status: 'expired', fundsReleased: true, statusVersion: 2 });
    });

    it('When the recipient confirms a method, the payout is processing with accepted_at set.', () => {
      const state = given(openLinkPayout)
        .when(confirm, NOW)
        .then([
          {
            type: 'PayoutConfirmed',
            data: { payoutId: PAYOUT_ID, selectedMethod: 'bank_transfer', acceptedAt: NOW.toISOString() },
          },
        ]);
      expect(state).toMatchObject({
        status: 'processing',
        selectedMethod: 'bank_transfer',
        acceptedAt: NOW.toISOString(),
        fundsReleased: false,
        statusVersion: 2,
      });
    });

    it('Once the recipient has confirmed, cancel is refused with not_cancellable.', () => {
      given([...openLinkPayout, confirmed()])
        .when(cancel, NOW)
        .thenRefuses('not_cancellable');
    });

    it('A confirmed payout may wait for the float, shown as safe_reason awaiting_float.', () => {
      const state = given([...openLinkPayout, confirmed()])
        .when(markAwaitingFloat, NOW)
        .then([{ type: 'PayoutAwaitingFloat', data: { payoutId: PAYOUT_ID, at: NOW.toISOString() } }]);
      expect(state).toMatchObject({ status: 'processing', safeReason: 'awaiting_float', statusVersion: 2 });
    });

    it('When the float is set aside for a queued payout, it leaves the queue: safe_reason is cleared, status_version stays.', () => {
      const state = given([...openLinkPayout, confirmed(), awaitingFloat()])
        .when(leaveFloatQueue, NOW)
        .then([{ type: 'PayoutLeftFloatQueue', data: { payoutId: PAYOUT_ID, at: NOW.toISOString() } }]);
      expect(state).toMatchObject({
        status: 'processing',
        safeReason: null,
        statusVersion: 2,
        updatedAt: NOW.toISOString(),
      });
    });

    it('A payout that left the float queue is sent and becomes paid.', () => {
      given([...openLinkPayout, confirmed(), awaitingFloat(), leftFloatQueue()])
        .when(recordPaid('rcpt_9'), NOW)
        .then([
          {
            type: 'PayoutPaid',
            data: { payoutId: PAYOUT_ID, receiptReference: 'rcpt_9', paidAt: NOW.toISOString() },
          },
        ]);
    });

    it('A payout waiting for the float is sent automatically later and becomes paid.', () => {
      const state = given([...openLinkPayout, confirmed(), awaitingFloat()])
        .when(recordPaid('rcpt_9'), NOW)
        .then([
          {
            type: 'PayoutPaid',
            data: { payoutId: PAYOUT_ID, receiptReference: 'rcpt_9', paidAt: NOW.toISOString() },
          },
        ]);
      expect(state).toMatchObject({
        status: 'paid',
        safeReason: null,
        receiptReference: 'rcpt_9',
        fundsReleased: false,
      });
    });

    it('When sending completes, the payout is paid with its receipt_reference.', () => {
      const state = given([...openLinkPayout, confirmed()])
        .when(recordPaid(), NOW)
        .then([
          {
            type: 'PayoutPaid',
            data: { payoutId: PAYOUT_ID, receiptReference: 'rcpt_1', paidAt: NOW.toISOString() },
          },
        ]);
      expect(state).toMatchObject({ status: 'paid', receiptReference: 'rcpt_1', statusVersion: 3 });
    });

    it.each<PayoutStatus>(['awaiting_choice', 'processing', 'review_required'])(
      'A payout that is %s can fail, and its money returns.',
      (status) => {
        const state = given(historyIn(status))
          .when(fail, NOW)
          .then([
            {
              type: 'PayoutFailed',
              data: { payoutId: PAYOUT_ID, reason: 'rail_rejected', failedAt: NOW.toISOString() },
            },
          ]);
        expect(state).toMatchObject({ status: 'failed', fundsReleased: true, safeReason: 'rail_rejected' });
      },
    );

    it.each<PayoutStatus>(['cancelled', 'expired', 'failed'])(
      'Cancelling a payout that is already %s returns it unchanged, without an error.',
      (status) => {
        given(historyIn(status)).when(cancel, NOW).then([]);
      },
    );

    it.each<PayoutStatus>(['paid', 'cancelled', 'expired', 'failed'])(
      'A redirect session for a payout that is %s is refused with not_resumable.',
      (status) => {
        given(historyIn(status, 'redirect'))
          .when(
            {
              type: 'StartRedirectSession',
              data: { sessionId: 'ses_2', tokenHash: 'h2', customerId: 'cust_9' },
            },
            NOW,
          )
          .thenRefuses('not_resumable');
      },
    );
  });

  describe('review_required (docs/design.md#review)', () => {
    it('A processing payout flagged by the rail or a risk rule needs review.', () => {
      const state = given([...openLinkPayout, confirmed()])
        .when(flag, NOW)
        .then([
          {
            type: 'PayoutReviewRequired',
            data: { payoutId: PAYOUT_ID, reason: 'manual_check', at: NOW.toISOString() },
          },
        ]);
      expect(state).toMatchObject({
        status: 'review_required',
        safeReason: 'manual_check',
        fundsReleased: false,
      });
    });

    it('An approved review sends the payout on: it is processing again.', () => {
      const state = given([...openLinkPayout, confirmed(), reviewRequired()])
        .when(approve, NOW)
        .then([{ type: 'PayoutReviewApproved', data: { payoutId: PAYOUT_ID, at: NOW.toISOString() } }]);
      expect(state).toMatchObject({
        status: 'processing',
        safeReason: null,
        selectedMethod: 'bank_transfer',
      });
    });

    it('A rejected review fails the payout with reason review_rejected, and its money returns.', () => {
      const state = given([...openLinkPayout, confirmed(), reviewRequired()])
        .when(reject, NOW)
        .then([
          {
            type: 'PayoutFailed',
            data: { payoutId: PAYOUT_ID, reason: 'review_rejected', failedAt: NOW.toISOString() },
          },
        ]);
      expect(state).toMatchObject({ status: 'failed', fundsReleased: true, safeReason: 'review_rejected' });
    });

    it('An approved payout can be paid afterwards.', () => {
      given([...openLinkPayout, confirmed(), reviewRequired(), reviewApproved()])
        .when(recordPaid(), NOW)
        .then([
          {
            type: 'PayoutPaid',
            data: { payoutId: PAYOUT_ID, receiptReference: 'rcpt_1', paidAt: NOW.toISOString() },
          },
        ]);
    });

    it('A decision other than approve or reject is refused.', () => {
      given([...openLinkPayout, confirmed(), reviewRequired()])
        .when({ type: 'DecideReview', data: { decision: 'maybe' as 'approve' } }, NOW)
        .thenRefuses('invalid_request', 'decision');
    });
  });

  describe('conditions and idempotent repeats', () => {
    it('Expiry before payout_expires_at is refused with not_yet_expired.', () => {
      given(openLinkPayout)
        .when(expire, after(7 * DAY_MS - 1))
        .thenRefuses('not_yet_expired');
    });

    it('A redirect payout expires 24 hours after creation.', () => {
      given(openRedirectPayout)
        .when(expire, after(DAY_MS - 1))
        .thenRefuses('not_yet_expired');
      given(openRedirectPayout)
        .when(expire, after(DAY_MS))
        .then([{ type: 'PayoutExpired', data: { payoutId: PAYOUT_ID, expiredAt: iso(DAY_MS) } }]);
    });

    it('Confirming at or after payout_expires_at is refused, even before the expiry timer ran.', () => {
      const error = given(openLinkPayout)
        .when(confirm, new Date(LINK_EXPIRES_AT))
        .thenRefuses('invalid_transition');
      expect(error.message).toMatch(/expired/);
    });

    it('Confirming without a method is refused.', () => {
      given(openLinkPayout)
        .when({ type: 'ConfirmPayout', data: { selectedMethod: '' } }, NOW)
        .thenRefuses('invalid_request', 'selected_method');
    });

    it('Marking a payout that already waits for the float changes nothing.', () => {
      given([...openLinkPayout, confirmed(), awaitingFloat()])
        .when(markAwaitingFloat, NOW)
        .then([]);
    });

    it('A processing payout that was never queued for the float has no queue to leave: nothing is written.', () => {
      given([...openLinkPayout, confirmed()])
        .when(leaveFloatQueue, NOW)
        .then([]);
    });

    it('Leaving the float queue a second time changes nothing.', () => {
      given([...openLinkPayout, confirmed(), awaitingFloat(), leftFloatQueue()])
        .when(leaveFloatQueue, NOW)
        .then([]);
    });

    it('A payout that left the float queue may be queued again, and leave it again.', () => {
      given([...openLinkPayout, confirmed(), awaitingFloat(), leftFloatQueue()])
        .when(markAwaitingFloat, NOW)
        .then([{ type: 'PayoutAwaitingFloat', data: { payoutId: PAYOUT_ID, at: NOW.toISOString() } }]);
    });

    it('Recording the same receipt for a paid payout again changes nothing.', () => {
      given([...openLinkPayout, confirmed(), paid()])
        .when(recordPaid('rcpt_1'), NOW)
        .then([]);
    });

    it('Recording a different receipt for a paid payout is refused.', () => {
      given([...openLinkPayout, confirmed(), paid()])
        .when(recordPaid('rcpt_2'), NOW)
        .thenRefuses('invalid_transition');
    });

    it.each(['receipt-1', 'rcpt_', '', 'RCPT_1'])(
      'A receipt reference %p that does not begin rcpt_ is refused.',
      (receipt) => {
        given([...openLinkPayout, confirmed()])
          .when(recordPaid(receipt), NOW)
          .thenRefuses('invalid_request', 'receipt_reference');
      },
    );

    it('Failing a failed payout again changes nothing.', () => {
      given([...openLinkPayout, confirmed(), failed()])
        .when(fail, NOW)
        .then([]);
    });

    it('Failing without a reason is refused.', () => {
      given(openLinkPayout)
        .when({ type: 'FailPayout', data: { reason: '' } }, NOW)
        .thenRefuses('invalid_request', 'reason');
    });

    it('Flagging for review without a reason is refused.', () => {
      given([...openLinkPayout, confirmed()])
        .when({ type: 'FlagForReview', data: { reason: '' } }, NOW)
        .thenRefuses('invalid_request', 'reason');
    });

    it.each<[string, PayoutCommand]>([
      ['ConfirmPayout', confirm],
      ['LeaveFloatQueue', leaveFloatQueue],
      ['CancelPayout', cancel],
      ['ExpirePayout', expire],
      ['FailPayout', fail],
      ['RecordPayoutPaid', recordPaid()],
      ['IssueClaimLink', { type: 'IssueClaimLink', data: { linkId: 'l', tokenHash: 'h', rotate: true } }],
      [
        'StartRedirectSession',
        { type: 'StartRedirectSession', data: { sessionId: 's', tokenHash: 'h', customerId: 'c' } },
      ],
    ])('%s for a payout that does not exist is refused with payout_not_found.', (_name, command) => {
      given([]).when(command, NOW).thenRefuses('payout_not_found');
    });
  });

  /**
   * Every lifecycle command against every status. Anything the state machine (docs/design.md) does not allow
   * is invalid_transition; the cells that differ are the rules above.
   */
  describe('every other move is refused', () => {
    type Cell = string[] | DomainErrorCode;
    const I: Cell = 'invalid_transition';
    const commands: [string, PayoutCommand][] = [
      ['ConfirmPayout', confirm],
      ['MarkAwaitingFloat', markAwaitingFloat],
      ['LeaveFloatQueue', leaveFloatQueue],
      ['FlagForReview', flag],
      ['DecideReview approve', approve],
      ['DecideReview reject', reject],
      ['RecordPayoutPaid with a new receipt', recordPaid('rcpt_new')],
      ['FailPayout', fail],
      ['CancelPayout', cancel],
      ['ExpirePayout', expire],
    ];
    const matrix: Record<PayoutStatus, Cell[]> = {
      awaiting_choice: [
        ['PayoutConfirmed'],
        I,
        I,
        I,
        I,
        I,
        I,
        ['PayoutFailed'],
        ['PayoutCancelled'],
        ['PayoutExpired'],
      ],
      // Never queued for the float: nothing to leave (the queued case is a rule above).
      processing: [
        I,
        ['PayoutAwaitingFloat'],
        [],
        ['PayoutReviewRequired'],
        I,
        I,
        ['PayoutPaid'],
        ['PayoutFailed'],
        'not_cancellable',
        I,
      ],
      review_required: [
        I,
        I,
        I,
        I,
        ['PayoutReviewApproved'],
        ['PayoutFailed'],
        I,
        ['PayoutFailed'],
        'not_cancellable',
        I,
      ],
      paid: [I, I, I, I, I, I, I, I, 'not_cancellable', []],
      cancelled: [I, I, I, I, I, I, I, I, [], []],
      expired: [I, I, I, I, I, I, I, I, [], []],
      failed: [I, I, I, I, I, I, I, [], [], []],
    };
    const cases = (Object.keys(matrix) as PayoutStatus[]).flatMap((status) =>
      commands.map(([name, command], i) => ({ status, name, command, expected: matrix[status][i] as Cell })),
    );

    it.each(cases)(
      'A payout that is $status answers $name with $expected.',
      ({ status, command, expected }) => {
        // Expiry is tried after payout_expires_at, everything else before it.
        const now = command.type === 'ExpirePayout' ? after(8 * DAY_MS) : NOW;
        expect(outcome(historyIn(status), command, now)).toEqual(expected);
      },
    );

    it('The matrix covers every status and every lifecycle command.', () => {
      expect(Object.keys(matrix).sort()).toEqual([...ALL_STATUSES].sort());
      for (const row of Object.values(matrix)) expect(row).toHaveLength(commands.length);
    });
  });

  it.each(ALL_STATUSES)(
    'The history used for %s leaves a link or a redirect payout in that status.',
    (status) => {
      expect(fold(historyIn(status, 'link')).status).toBe(status);
      expect(fold(historyIn(status, 'redirect')).status).toBe(status);
    },
  );
});
