import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@payouts/config';
import type { EventStore } from '@payouts/event-store';
import { answerRow } from '@payouts/idempotency';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE } from '@payouts/platform';
import { Decides, Decision, WritePath } from '@payouts/write-side';
import { newHandoffToken } from '../shared/identifiers';
import { decideAccess, PayoutAccessResult } from '../shared/payout-access';
import { payoutUrl } from '../shared/payout-responses';
import { SealedAnswerUrls } from '../shared/sealed-answer-urls';
import { StartRedirectSessionCommand } from './start-redirect-session.command';

/**
 * Create Redirect Session (`POST /api/payout/{payout_id}/session`). With the request's key, the
 * answer (its URL sealed in the stored copy, like a claim link's; the handoff still works only
 * once) commits with it.
 */
@CommandHandler(StartRedirectSessionCommand)
export class StartRedirectSessionHandler
  implements
    ICommandHandler<StartRedirectSessionCommand, PayoutAccessResult>,
    Decides<StartRedirectSessionCommand, PayoutAccessResult>
{
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly answerUrls: SealedAnswerUrls,
    private readonly writes: WritePath,
  ) {}

  execute(command: StartRedirectSessionCommand): Promise<PayoutAccessResult> {
    return this.writes.execute(command, this);
  }

  async decide(command: StartRedirectSessionCommand): Promise<Decision<PayoutAccessResult>> {
    const decision = await decideAccess(
      this.store,
      this.clock.now(command.environment),
      command,
      ({ id, tokenHash }) => ({
        type: 'StartRedirectSession',
        data: { sessionId: id, tokenHash, customerId: command.customerId },
      }),
      newHandoffToken(command.payoutId),
    );
    if (!command.hold) return decision;
    const started = decision.result;
    const url = payoutUrl(
      this.config.publicBaseUrl,
      command.environment,
      'redirect',
      started.accessToken ?? '',
    );
    const answer = {
      payout_id: command.payoutId,
      payout_url: url,
      access_link_expires_at: started.accessExpiresAt,
    };
    return {
      ...decision,
      plan: {
        ...decision.plan,
        rows: [answerRow(command.hold, 200, this.answerUrls.seal(answer, 'payout_url', url))],
      },
      result: { ...started, answer: { body: answer } },
    };
  }
}
