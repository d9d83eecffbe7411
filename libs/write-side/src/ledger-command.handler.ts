import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@payouts/clock';
import { LEDGER_AGGREGATE, LedgerOwner, ledgerOwnerFromStreamId, LedgerState } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { AggregateCache } from './aggregate-cache';
import { LoadedAggregate } from './aggregate-streams';
import { Decides, Decision } from './decision';
import { WritePath } from './write-path';

/** A command on one ledger names it by stream id (any account, environment and currency). */
export interface LedgerCommandOn {
  readonly ledgerStreamId: string;
}

/**
 * A command on one ledger (an operator's credit or limits, the dashboard's retained target, the
 * worker's maturing and settlements): the ledger's lock from the first decision on, the ledger
 * loaded through the aggregate cache, `now` on the ledger's environment's clock (so the sandbox
 * clock matures and settles sandbox ledgers). A subclass only says what the command decides.
 * Create and Cancel Payout are not among them: they decide a payout beside its ledger.
 */
@Injectable()
export abstract class LedgerCommandHandler<Command extends LedgerCommandOn, Result> implements Decides<
  Command,
  Result
> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: AggregateCache,
    private readonly writes: WritePath,
  ) {}

  execute(command: Command): Promise<Result> {
    return this.writes.execute(command, this);
  }

  locksFor(command: Command): readonly string[] {
    return [command.ledgerStreamId];
  }

  async decide(command: Command): Promise<Decision<Result>> {
    const owner = ledgerOwnerFromStreamId(command.ledgerStreamId);
    if (!owner) throw new Error(`${command.ledgerStreamId} is not a ledger stream id`);
    const ledger = await this.cache.load(this.store, command.ledgerStreamId, LEDGER_AGGREGATE);
    return this.decideOn(command, ledger, owner, this.clock.now(owner.environment));
  }

  protected abstract decideOn(
    command: Command,
    ledger: LoadedAggregate<LedgerState>,
    owner: LedgerOwner,
    now: Date,
  ): Decision<Result>;
}
