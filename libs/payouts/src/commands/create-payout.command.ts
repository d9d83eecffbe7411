import { Command } from '@nestjs/cqrs';
import type { SqlQueryable } from '@payouts/database';
import { Environment, PayoutDelivery, PayoutState } from '@payouts/domain';

export interface CreatePayoutInput {
  accountId: string;
  environment: Environment;
  amount: string;
  merchantReference: string;
  delivery: PayoutDelivery;
  customerEmail?: string | null;
  customerId?: string | null;
  returnUrl?: string | null;
  description?: string | null;
  caseReference?: string | null;
  originalPaymentId?: string | null;
  /** Chosen by the caller so a retry of the same request names the same payout. */
  payoutId?: string;
  /**
   * Runs last inside the append's transaction with the result the command is about to return:
   * the gateway stores the request's idempotent answer there, so the payout and its answer commit
   * together (one commit instead of two).
   */
  withinAppend?: (tx: SqlQueryable, result: CreatePayoutResult) => Promise<void>;
}

export interface CreatePayoutResult {
  payout: Extract<PayoutState, { status: 'awaiting_choice' }>;
  /** The claim-link or handoff token for `payout_url`; returned once, stored only as a hash. */
  accessToken: string;
  accessExpiresAt: string;
}

export class CreatePayoutCommand extends Command<CreatePayoutResult> {
  constructor(readonly input: CreatePayoutInput) {
    super();
  }
}
