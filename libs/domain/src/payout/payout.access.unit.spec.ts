import { HOUR_MS, MINUTE_MS } from '../kernel/time';
import { deciderSpec } from '../testing/given-when-then';
import { PayoutCommand } from './payout.commands';
import { PayoutEvent, PayoutStatus } from './payout.events';
import { payoutDecider } from './payout.decide';
import {
  after,
  ALL_STATUSES,
  historyIn,
  iso,
  LINK_EXPIRES_AT,
  openLinkPayout,
  openRedirectPayout,
  PAYOUT_ID,
  REDIRECT_EXPIRES_AT,
} from '../testing/payout.fixtures';

const { given } = deciderSpec(payoutDecider);
const NOW = after(3 * HOUR_MS);

const rotate = (rotate: boolean, linkId = 'lnk_2'): PayoutCommand => ({
  type: 'IssueClaimLink',
  data: { linkId, tokenHash: `hash-${linkId}`, rotate },
});
const startSession = (sessionId = 'ses_2', customerId = 'cust_9'): PayoutCommand => ({
  type: 'StartRedirectSession',
  data: { sessionId, tokenHash: `hash-${sessionId}`, customerId },
});
const consume = (sessionId: string): PayoutCommand => ({
  type: 'ConsumeRedirectHandoff',
  data: { sessionId },
});
const sessionStarted = (sessionId: string, ms: number): PayoutEvent => ({
  type: 'RedirectSessionStarted',
  data: {
    payoutId: PAYOUT_ID,
    sessionId,
    tokenHash: `hash-${sessionId}`,
    startedAt: iso(ms),
    expiresAt: iso(ms + 10 * MINUTE_MS),
  },
});

describe('Claim links (link delivery)', () => {
  it('Rotating the link of an open payout issues a replacement valid until the payout expires, and only it stays current.', () => {
    const state = given(openLinkPayout)
      .when(rotate(true), NOW)
      .then([
        {
          type: 'ClaimLinkIssued',
          data: {
            payoutId: PAYOUT_ID,
            linkId: 'lnk_2',
            tokenHash: 'hash-lnk_2',
            rotated: true,
            issuedAt: NOW.toISOString(),
            expiresAt: LINK_EXPIRES_AT,
          },
        },
      ]);
    expect(state).toMatchObject({
      currentLink: { linkId: 'lnk_2', tokenHash: 'hash-lnk_2', expiresAt: LINK_EXPIRES_AT },
      payoutExpiresAt: LINK_EXPIRES_AT,
      statusVersion: 1,
      updatedAt: iso(0),
    });
  });

  it.each(ALL_STATUSES)(
    'Asking for the link of a payout that is %s without rotating adds nothing: no new link, deadline or fee.',
    (status) => {
      given(historyIn(status)).when(rotate(false), NOW).then([]);
    },
  );

  it.each([true, false])(
    'Asking for a claim link of a redirect payout (rotate %p) is refused with wrong_delivery.',
    (r) => {
      given(openRedirectPayout).when(rotate(r), NOW).thenRefuses('wrong_delivery');
    },
  );

  it.each<PayoutStatus>(['paid', 'cancelled', 'expired', 'failed'])(
    'Rotating the link of a payout that is %s is refused with not_resumable.',
    (status) => {
      given(historyIn(status)).when(rotate(true), NOW).thenRefuses('not_resumable');
    },
  );

  it.each<PayoutStatus>(['processing', 'review_required'])(
    'Rotating the link of a payout that is %s is refused, because the recipient has already confirmed.',
    (status) => {
      given(historyIn(status)).when(rotate(true), NOW).thenRefuses('invalid_transition');
    },
  );

  it('Rotating the link once payout_expires_at is reached is refused with not_resumable.', () => {
    given(openLinkPayout).when(rotate(true), new Date(LINK_EXPIRES_AT)).thenRefuses('not_resumable');
  });
});

describe('Redirect sessions (redirect delivery)', () => {
  it('A new session for the bound customer starts a 10-minute handoff and replaces the earlier session.', () => {
    const state = given(openRedirectPayout)
      .when(startSession('ses_2'), after(HOUR_MS))
      .then([sessionStarted('ses_2', HOUR_MS)]);
    expect(state).toMatchObject({
      currentSession: {
        sessionId: 'ses_2',
        tokenHash: 'hash-ses_2',
        expiresAt: iso(HOUR_MS + 10 * MINUTE_MS),
        consumed: false,
      },
      payoutExpiresAt: REDIRECT_EXPIRES_AT,
      statusVersion: 1,
      updatedAt: iso(0),
    });
  });

  it('A session started less than 10 minutes before payout_expires_at ends at payout_expires_at.', () => {
    const now = new Date(Date.parse(REDIRECT_EXPIRES_AT) - 4 * MINUTE_MS);
    given(openRedirectPayout)
      .when(startSession('ses_2'), now)
      .then([
        {
          type: 'RedirectSessionStarted',
          data: {
            payoutId: PAYOUT_ID,
            sessionId: 'ses_2',
            tokenHash: 'hash-ses_2',
            startedAt: now.toISOString(),
            expiresAt: REDIRECT_EXPIRES_AT,
          },
        },
      ]);
  });

  it('A session for a link payout is refused with wrong_delivery.', () => {
    given(openLinkPayout).when(startSession(), NOW).thenRefuses('wrong_delivery');
  });

  it('A session for another customer is refused with customer_mismatch.', () => {
    given(openRedirectPayout)
      .when(startSession('ses_2', 'cust_other'), NOW)
      .thenRefuses('customer_mismatch', 'customer_id');
  });

  it('Another customer learns nothing about a finished payout: the mismatch is reported first.', () => {
    given(historyIn('paid', 'redirect'))
      .when(startSession('ses_2', 'cust_other'), NOW)
      .thenRefuses('customer_mismatch', 'customer_id');
  });

  it.each<PayoutStatus>(['processing', 'review_required'])(
    'A confirmed payout that is %s can still be resumed to show its progress.',
    (status) => {
      given(historyIn(status, 'redirect'))
        .when(startSession(), NOW)
        .then([sessionStarted('ses_2', 3 * HOUR_MS)]);
    },
  );

  it('A session once payout_expires_at is reached is refused with not_resumable.', () => {
    given(openRedirectPayout)
      .when(startSession(), new Date(REDIRECT_EXPIRES_AT))
      .thenRefuses('not_resumable');
  });
});

describe('Redirect handoffs', () => {
  it('The current session can be used once within its 10 minutes.', () => {
    const now = after(10 * MINUTE_MS - 1);
    const state = given(openRedirectPayout)
      .when(consume('ses_1'), now)
      .then([
        {
          type: 'RedirectHandoffConsumed',
          data: { payoutId: PAYOUT_ID, sessionId: 'ses_1', consumedAt: now.toISOString() },
        },
      ]);
    expect(state).toMatchObject({
      currentSession: { sessionId: 'ses_1', consumed: true },
      statusVersion: 1,
      updatedAt: iso(0),
    });
  });

  it('A used handoff cannot be used again.', () => {
    const used: PayoutEvent = {
      type: 'RedirectHandoffConsumed',
      data: { payoutId: PAYOUT_ID, sessionId: 'ses_1', consumedAt: iso(MINUTE_MS) },
    };
    given([...openRedirectPayout, used])
      .when(consume('ses_1'), after(2 * MINUTE_MS))
      .thenRefuses('handoff_invalid');
  });

  it('A handoff of a session replaced by a newer one is refused.', () => {
    given([...openRedirectPayout, sessionStarted('ses_2', MINUTE_MS)])
      .when(consume('ses_1'), after(2 * MINUTE_MS))
      .thenRefuses('handoff_invalid');
  });

  it('The newer session works after a replacement.', () => {
    given([...openRedirectPayout, sessionStarted('ses_2', MINUTE_MS)])
      .when(consume('ses_2'), after(2 * MINUTE_MS))
      .then([
        {
          type: 'RedirectHandoffConsumed',
          data: { payoutId: PAYOUT_ID, sessionId: 'ses_2', consumedAt: iso(2 * MINUTE_MS) },
        },
      ]);
  });

  it('A handoff at or after its expiry is refused.', () => {
    given(openRedirectPayout)
      .when(consume('ses_1'), after(10 * MINUTE_MS))
      .thenRefuses('handoff_invalid');
  });

  it.each<PayoutStatus>(['paid', 'cancelled', 'expired', 'failed'])(
    'A handoff for a payout that is %s is refused.',
    (status) => {
      given(historyIn(status, 'redirect'))
        .when(consume('ses_1'), after(MINUTE_MS))
        .thenRefuses('handoff_invalid');
    },
  );

  it('A handoff for a link payout, or for no payout at all, is refused the same way.', () => {
    given(openLinkPayout).when(consume('ses_1'), after(MINUTE_MS)).thenRefuses('handoff_invalid');
    given([]).when(consume('ses_1'), after(MINUTE_MS)).thenRefuses('handoff_invalid');
  });
});
