import type { CommandBus } from '@nestjs/cqrs';
import type { IdempotentRequest, IdempotentRequests, IdempotentResult } from '@payouts/idempotency';
import { IssueClaimLinkCommand, SealedAnswerUrls } from '@payouts/payouts';

/** One Get or Rotate Claim Link request, from the API (`POST /api/payout/{id}/link`) or the dashboard. */
export interface ClaimLinkIssueRequest {
  owner: IdempotentRequest['owner'];
  /** The idempotency scope's path. */
  path: string;
  key: string | undefined;
  /** A well-formed payout id (checkedPayoutId). */
  payoutId: string;
  rotate: boolean;
}

/**
 * Get or Rotate Claim Link, the one way: under the key, IssueClaimLinkCommand, whose answer (the
 * link, sealed in the stored copy) commits with it; a replay opens the stored link again, so a
 * rotation sent twice rotates once and answers the same link.
 */
export function issueClaimLinkIdempotently(
  services: { commands: CommandBus; idempotent: IdempotentRequests; answerUrls: SealedAnswerUrls },
  request: ClaimLinkIssueRequest,
): Promise<IdempotentResult> {
  const { owner, payoutId, rotate } = request;
  return services.idempotent.handle(
    { owner, path: request.path, key: request.key, body: { rotate }, resourceId: payoutId },
    async (hold) => {
      const issued = await services.commands.execute(
        new IssueClaimLinkCommand(owner.accountId, owner.environment, payoutId, rotate, hold),
      );
      return { status: 200, body: issued.answer?.body, committed: true };
    },
    { replayed: (stored) => services.answerUrls.open(stored, 'url') },
  );
}
