import { HOUR_MS } from '../kernel/time';
import { deciderSpec } from '../testing/given-when-then';
import { PayoutEvent, PayoutStatus } from './payout.events';
import { payoutDecider } from './payout.decide';
import { evolvePayout } from './payout.evolve';
import { initialPayoutState, Payout, PayoutState } from './payout.state';
import {
  ALL_STATUSES,
  awaitingFloat,
  confirmed,
  firstLinkIssued,
  firstSessionStarted,
  historyIn,
  iso,
  leftFloatQueue,
  linkPayoutCreated,
  openLinkPayout,
  paid,
  redirectPayoutCreated,
  reviewApproved,
  reviewRequired,
} from '../testing/payout.fixtures';

const { fold } = deciderSpec(payoutDecider);

/** The states after each event of a history. */
function statesAlong(events: PayoutEvent[]): Payout[] {
  const states: PayoutState[] = [];
  events.reduce((state, event) => {
    const next = evolvePayout(state, event);
    states.push(next);
    return next;
  }, initialPayoutState());
  return states as Payout[];
}

describe('Payout state', () => {
  it('Before its creation, a payout does not exist.', () => {
    expect(initialPayoutState()).toEqual({ status: 'none' });
  });

  it('status_version is 1 at creation and rises by exactly one on each status change, and on nothing else.', () => {
    const history = [
      ...openLinkPayout,
      confirmed(HOUR_MS),
      awaitingFloat(2 * HOUR_MS),
      leftFloatQueue(2.5 * HOUR_MS),
      reviewRequired(3 * HOUR_MS),
      reviewApproved(4 * HOUR_MS),
      paid(5 * HOUR_MS),
    ];
    const states = statesAlong(history);
    expect(states.map((s) => [s.status, s.statusVersion, s.safeReason])).toEqual([
      ['awaiting_choice', 1, null],
      ['awaiting_choice', 1, null],
      ['processing', 2, null],
      ['processing', 2, 'awaiting_float'],
      ['processing', 2, null],
      ['review_required', 3, 'manual_check'],
      ['processing', 4, null],
      ['paid', 5, null],
    ]);
  });

  it('updated_at moves with every change the merchant can see, and not with link or session events.', () => {
    const history = [
      ...openLinkPayout,
      confirmed(HOUR_MS),
      awaitingFloat(2 * HOUR_MS),
      leftFloatQueue(2.5 * HOUR_MS),
      reviewRequired(3 * HOUR_MS),
      reviewApproved(4 * HOUR_MS),
      paid(5 * HOUR_MS),
    ];
    expect(statesAlong(history).map((s) => s.updatedAt)).toEqual([
      iso(0),
      iso(0),
      iso(HOUR_MS),
      iso(2 * HOUR_MS),
      iso(2.5 * HOUR_MS),
      iso(3 * HOUR_MS),
      iso(4 * HOUR_MS),
      iso(5 * HOUR_MS),
    ]);
  });

  it.each<[PayoutStatus, boolean]>([
    ['awaiting_choice', false],
    ['processing', false],
    ['review_required', false],
    ['paid', false],
    ['cancelled', true],
    ['expired', true],
    ['failed', true],
  ])('A payout that is %s has funds_released %p.', (status, released) => {
    expect(fold(historyIn(status))).toMatchObject({ status, fundsReleased: released });
  });

  it.each(ALL_STATUSES)('A payout that is %s keeps the facts fixed at creation.', (status) => {
    expect(fold(historyIn(status))).toMatchObject({
      amount: '25.50',
      fee: '1.25',
      totalReserved: '26.75',
      merchantReference: 'order-42',
      createdAt: iso(0),
      payoutExpiresAt: '2026-03-08T12:00:00.000Z',
    });
  });

  describe('an event the decider could not have produced is a bug and fails loudly', () => {
    it.each<[string, PayoutEvent[]]>([
      ['a status change before creation', [confirmed()]],
      ['a second creation', [linkPayoutCreated, linkPayoutCreated]],
      ['a claim link for a redirect payout', [redirectPayoutCreated, firstLinkIssued]],
      ['a redirect session for a link payout', [linkPayoutCreated, firstSessionStarted]],
      ['a payment before the recipient confirmed', [...openLinkPayout, paid()]],
      ['an approval without a review', [...openLinkPayout, confirmed(), reviewApproved()]],
      ['leaving a float queue the payout never joined', [...openLinkPayout, confirmed(), leftFloatQueue()]],
      ['leaving the float queue before the recipient confirmed', [...openLinkPayout, leftFloatQueue()]],
      [
        'a used handoff that is not the current session',
        [
          redirectPayoutCreated,
          firstSessionStarted,
          {
            type: 'RedirectHandoffConsumed',
            data: { payoutId: 'po_123', sessionId: 'ses_0', consumedAt: iso(1) },
          },
        ],
      ],
    ])('Evolve refuses %s.', (_label, events) => {
      expect(() => fold(events)).toThrow(/Cannot apply/);
    });
  });
});
