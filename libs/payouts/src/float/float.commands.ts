import { Command, Query } from '@nestjs/cqrs';
import { Environment, FloatView } from '@payouts/domain';

export interface FloatResult extends FloatView {
  environment: Environment;
  /** The float stream's version after the command (0: never topped up). */
  floatVersion: number;
}

/** Operator: add money to an environment's payout float; queued payouts then go out. */
export class TopUpFloatCommand extends Command<FloatResult> {
  constructor(
    readonly environment: Environment,
    readonly amount: string,
    readonly reference: string,
    /**
     * Only when the float has never been written: the sandbox's opening balance, which every
     * worker process may try to write at start and exactly one does.
     */
    readonly onlyIfNew = false,
  ) {
    super();
  }
}

/** Worker: set a processing payout's amount aside in its environment's float, or refuse with float_insufficient. */
export class ReserveFloatCommand extends Command<FloatResult> {
  constructor(readonly payoutId: string) {
    super();
  }
}

/** The float of one environment as it stands. */
export class GetFloatQuery extends Query<FloatResult> {
  constructor(readonly environment: Environment) {
    super();
  }
}
