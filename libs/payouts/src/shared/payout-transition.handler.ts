import { Injectable } from '@nestjs/common';
import type { Payout, PayoutState } from '@payouts/domain';
import { Decides, Decision, WritePath } from '@payouts/write-side';
import { PayoutTransitions, TransitionOptions, TransitionPlan } from './payout-transitions';

/**
 * A command on one payout: its handler says what the command does to the payout (and to the
 * ledger and float), PayoutTransitions decides it into a plan, and the write path commits it.
 */
@Injectable()
export abstract class PayoutTransitionHandler<Command extends { payoutId: string }> implements Decides<
  Command,
  PayoutState
> {
  constructor(
    protected readonly transitions: PayoutTransitions,
    private readonly writes: WritePath,
  ) {}

  execute(command: Command): Promise<PayoutState> {
    return this.writes.execute(command, this);
  }

  decide(command: Command): Promise<Decision<PayoutState>> {
    return this.transitions.decide(
      command.payoutId,
      (payout) => this.transition(command, payout),
      this.options(command),
    );
  }

  protected abstract transition(command: Command, payout: Payout): TransitionPlan;

  protected options(_command: Command): TransitionOptions {
    return {};
  }
}
