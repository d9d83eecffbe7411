import type { CommandBus } from '@nestjs/cqrs';
import { ApiError } from '@payouts/http';
import type { IdempotentRequest, IdempotentRequests, IdempotentResult } from '@payouts/idempotency';
import { CancelPayoutCommand, payoutMerchantView } from '@payouts/payouts';

/** One Cancel Payout request, from the API (`POST /api/payout/{id}/cancel`) or the dashboard. */
export interface PayoutCancellationRequest {
  owner: IdempotentRequest['owner'];
  /** The idempotency scope's path. */
  path: string;
  key: string | undefined;
  /** A well-formed payout id (checkedPayoutId). */
  payoutId: string;
}

/**
 * Cancel Payout, the one way: under the key, CancelPayoutCommand (refused with not_cancellable once
 * the recipient has confirmed; a payout already cancelled, expired or failed comes back unchanged),
 * answered with the merchant view; another account's or environment's payout is 404.
 */
export function cancelPayoutIdempotently(
  services: { commands: CommandBus; idempotent: IdempotentRequests },
  request: PayoutCancellationRequest,
): Promise<IdempotentResult> {
  const { owner, payoutId } = request;
  return services.idempotent.handle(
    { owner, path: request.path, key: request.key, body: null, resourceId: payoutId },
    async (hold) => {
      const payout = await services.commands.execute(
        new CancelPayoutCommand(owner.accountId, owner.environment, payoutId, hold),
      );
      if (payout.status === 'none') throw new ApiError(404, 'not_found', 'no such payout');
      return { status: 200, body: payoutMerchantView(payout), committed: true };
    },
  );
}
