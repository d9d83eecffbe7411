import { Command } from '@nestjs/cqrs';
import { Environment, PayoutDelivery, PayoutSource, PayoutState } from '@payouts/domain';
import type { IdempotencyHold } from '@payouts/idempotency';
import { newPayoutId } from '../shared/identifiers';

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
  /** Where the payout is created from (the merchant view's `source`); `api` when left out. */
  source?: PayoutSource;
  /** Chosen by the caller so a retry of the same request names the same payout. */
  payoutId?: string;
  /** The request's Idempotency-Key: its answer commits with the payout. */
  hold?: IdempotencyHold;
}

export interface CreatePayoutResult {
  payout: Extract<PayoutState, { status: 'awaiting_choice' }>;
  /** The claim-link or handoff token for `payout_url`; returned once, stored only as a hash. */
  accessToken: string;
  accessExpiresAt: string;
}

export class CreatePayoutCommand extends Command<CreatePayoutResult> {
  /** The new payout's id, the same on every attempt. */
  readonly payoutId: string;

  constructor(readonly input: CreatePayoutInput) {
    super();
    this.payoutId = input.payoutId ?? newPayoutId();
  }
}
