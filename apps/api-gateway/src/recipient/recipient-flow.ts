import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import {
  DomainError,
  Environment,
  evolvePayout,
  initialPayoutState,
  Payout,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore, RecordedEvent } from '@payouts/event-store';
import { ConsumeRedirectHandoffCommand, payoutIdOfAccessToken, sha256Hex } from '@payouts/payouts';
import { PageSessionStore } from '@payouts/claims';
import type { PageSession } from '@payouts/claims';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE } from '@payouts/platform';
import { ACCOUNTS } from '../gateway.tokens';
import { handoffUnusable, linkNotFound, linkReplaced, sessionEnded } from './recipient-errors';

/** A payout as the pages see it, with the events it was folded from and who is paying it. */
export interface LoadedPayout {
  payout: Payout;
  events: RecordedEvent[];
  /** The paying merchant's account name, as the operator gave it (shown escaped, as text). */
  merchantName: string;
}

/** Only if the account row were missing: the pages still say someone is paying. */
const UNKNOWN_MERCHANT = 'The sender';

/**
 * The rules of getting in: which link or handoff opens which payout, and whether a browser's
 * session still belongs to the payout's current link or redirect session. Rotation of a link or a
 * newer redirect session ends every session of the old one (spec 3.2, session and link rules).
 */
@Injectable()
export class RecipientFlow {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    private readonly sessions: PageSessionStore,
    private readonly commands: CommandBus,
  ) {}

  now(environment: Environment): Date {
    return this.clock.now(environment);
  }

  /** Secure cookies whenever the pages are served over https. */
  get secureCookies(): boolean {
    return this.config.publicBaseUrl.startsWith('https://');
  }

  async load(payoutId: string, environment: Environment): Promise<LoadedPayout | null> {
    const { events } = await this.store.readStream(payoutStreamId(payoutId));
    const state = events.reduce(
      (acc, event) =>
        evolvePayout(acc, { type: event.type, data: event.data } as Parameters<typeof evolvePayout>[1]),
      initialPayoutState(),
    );
    // A payout of the other environment does not exist under this prefix.
    if (state.status === 'none' || state.environment !== environment) return null;
    const merchantName = (await this.accounts.accountName(state.accountId)) ?? UNKNOWN_MERCHANT;
    return { payout: state, events, merchantName };
  }

  /**
   * A claim link: opens a session (unverified) bound to the link that is current. A payout that
   * can no longer be claimed (confirmed, final, or past payout_expires_at) opens no session: the
   * link shows where the payout stands.
   */
  async enterLink(
    environment: Environment,
    token: string,
  ): Promise<{ kind: 'session'; cookie: string } | { kind: 'status'; loaded: LoadedPayout }> {
    const loaded = await this.loadByToken(environment, token);
    const { payout } = loaded;
    if (payout.delivery !== 'link') throw linkNotFound();
    const tokenHash = sha256Hex(token);
    if (!payout.currentLink || !sameHash(payout.currentLink.tokenHash, tokenHash)) {
      throw issuedBefore(loaded.events, tokenHash) ? linkReplaced() : linkNotFound();
    }
    const now = this.now(environment);
    if (payout.status !== 'awaiting_choice' || now >= new Date(payout.payoutExpiresAt)) {
      return { kind: 'status', loaded };
    }
    const session = await this.sessions.create({
      payoutId: payout.payoutId,
      accessId: payout.currentLink.linkId,
      verified: false,
      payoutExpiresAt: new Date(payout.payoutExpiresAt),
      now,
    });
    return { kind: 'session', cookie: session.cookie };
  }

  /** A redirect handoff: used once (the payout's stream records it), then a verified session. */
  async enterHandoff(environment: Environment, token: string): Promise<{ cookie: string }> {
    const loaded = await this.loadByToken(environment, token);
    const { payout } = loaded;
    if (payout.delivery !== 'redirect') throw linkNotFound();
    const tokenHash = sha256Hex(token);
    const session = payout.currentSession;
    if (!session || !sameHash(session.tokenHash, tokenHash)) {
      throw issuedBefore(loaded.events, tokenHash) ? handoffUnusable() : linkNotFound();
    }
    try {
      await this.commands.execute(new ConsumeRedirectHandoffCommand(payout.payoutId, session.sessionId));
    } catch (error) {
      if (error instanceof DomainError) throw handoffUnusable();
      throw error;
    }
    return this.sessions.create({
      payoutId: payout.payoutId,
      accessId: session.sessionId,
      // The merchant authenticated this customer before redirecting (spec 1): nothing to verify.
      verified: true,
      payoutExpiresAt: new Date(payout.payoutExpiresAt),
      now: this.now(environment),
    });
  }

  /** The browser's session and its payout, if the session still belongs to the payout's current access. */
  async current(
    environment: Environment,
    cookie: string | undefined,
  ): Promise<{ session: PageSession; loaded: LoadedPayout }> {
    if (!cookie) throw sessionEnded();
    const session = await this.sessions.find(cookie, this.now(environment));
    if (!session) throw sessionEnded();
    const loaded = await this.load(session.payoutId, environment);
    if (!loaded) throw sessionEnded();
    const { payout } = loaded;
    const currentAccessId =
      payout.delivery === 'link' ? payout.currentLink?.linkId : payout.currentSession?.sessionId;
    if (currentAccessId !== session.accessId) {
      throw payout.delivery === 'link' ? linkReplaced() : handoffUnusable();
    }
    return { session, loaded };
  }

  markVerified(session: PageSession, now: Date): Promise<void> {
    return this.sessions.markVerified(session, now);
  }

  checkCsrf(session: PageSession, submitted: string | undefined): boolean {
    return this.sessions.checkCsrf(session, submitted);
  }

  private async loadByToken(environment: Environment, token: string): Promise<LoadedPayout> {
    const payoutId = payoutIdOfAccessToken(token);
    if (!payoutId) throw linkNotFound();
    const loaded = await this.load(payoutId, environment);
    if (!loaded) throw linkNotFound();
    return loaded;
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether this token was once a link or handoff of the payout (so: replaced or used, not unknown). */
function issuedBefore(events: RecordedEvent[], tokenHash: string): boolean {
  return events.some(
    (event) =>
      (event.type === 'ClaimLinkIssued' || event.type === 'RedirectSessionStarted') &&
      sameHash((event.data as { tokenHash: string }).tokenHash, tokenHash),
  );
}
