import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AppConfig } from '@payouts/config';
import { DomainError, Environment, Payout, PAYOUT_AGGREGATE, payoutStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { ConsumeRedirectHandoffCommand, payoutIdOfAccessToken, sha256Hex } from '@payouts/payouts';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE } from '@payouts/platform';
import { loadAggregate } from '@payouts/write-side';
import { PageSessionStore } from './page-session-store';
import type { PageSession } from './page-session-store';
import { handoffUnusable, linkNotFound, linkReplaced, sessionEnded } from './recipient-errors';

/** Who pays a payout, by account: the paying merchant's account name, or null without one. */
export interface MerchantNames {
  accountName(accountId: string): Promise<string | null>;
}

/** Nest token of the MerchantNames the flow reads (the app binds its AccountsRepository to it). */
export const MERCHANT_NAMES = Symbol('MERCHANT_NAMES');

/** A payout as the pages see it, the stream version it was folded at, and who is paying it. */
export interface LoadedPayout {
  payout: Payout;
  /** The payout stream's version the state was folded at: the events issuedBefore looks through. */
  version: number;
  /** The paying merchant's account name, as the operator gave it (shown escaped, as text). */
  merchantName: string;
}

/** Only if the account row were missing: the pages still say someone is paying. */
const UNKNOWN_MERCHANT = 'The sender';

/**
 * The rules of getting in: which link or handoff opens which payout, and whether a browser's
 * session still belongs to the payout's current link or redirect session. Rotation of a link or a
 * newer redirect session ends every session of the old one (README.md, "The recipient's side").
 */
@Injectable()
export class RecipientFlow {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MERCHANT_NAMES) private readonly merchants: MerchantNames,
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

  /**
   * Loaded the way every payout command loads it (loadAggregate with the payout's evolve), read
   * whole from the store rather than through the aggregate cache: a page never acts on a state
   * that may be behind.
   */
  async load(payoutId: string, environment: Environment): Promise<LoadedPayout | null> {
    const { state, version } = await loadAggregate(this.store, payoutStreamId(payoutId), PAYOUT_AGGREGATE);
    // A payout of the other environment does not exist under this prefix.
    if (state.status === 'none' || state.environment !== environment) return null;
    const merchantName = (await this.merchants.accountName(state.accountId)) ?? UNKNOWN_MERCHANT;
    return { payout: state, version, merchantName };
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
      throw (await this.issuedBefore(loaded, tokenHash)) ? linkReplaced() : linkNotFound();
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
      throw (await this.issuedBefore(loaded, tokenHash)) ? handoffUnusable() : linkNotFound();
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
      // The merchant authenticated this customer before redirecting: nothing to verify.
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

  private async loadByToken(environment: Environment, token: string): Promise<LoadedPayout> {
    const payoutId = payoutIdOfAccessToken(token);
    if (!payoutId) throw linkNotFound();
    const loaded = await this.load(payoutId, environment);
    if (!loaded) throw linkNotFound();
    return loaded;
  }

  /**
   * Whether this token was once a link or handoff of the payout (so: replaced or used, not
   * unknown), among the events the loaded state was folded from. Only a token that is not the
   * current one asks, so only a refusal reads the stream a second time.
   */
  private async issuedBefore(loaded: LoadedPayout, tokenHash: string): Promise<boolean> {
    const { events } = await this.store.readStream(payoutStreamId(loaded.payout.payoutId));
    return events.some(
      (event) =>
        event.streamVersion <= loaded.version &&
        (event.type === 'ClaimLinkIssued' || event.type === 'RedirectSessionStarted') &&
        sameHash((event.data as { tokenHash: string }).tokenHash, tokenHash),
    );
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
