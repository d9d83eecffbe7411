import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  decideLedger,
  Environment,
  evolveLedger,
  initialLedgerState,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerCommand,
  ledgerStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { appendWithReadModels } from '../support/append-with-read-models';
import { expectedVersionOf, toNewEvents } from '../support/aggregate-streams';
import type { Clock } from '@payouts/clock';
import { AggregateCache } from '../support/aggregate-cache';
import { LedgerLocks } from '../support/ledger-locks';
import { retryOnConflict } from '../support/retry-on-conflict';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { CreditFundsCommand, LedgerCommandResult, SetLedgerLimitsCommand } from './ledger-commands';

/** Load the ledger, decide, append with its expected version; retried on conflict. */
async function runLedgerCommand(
  store: EventStore,
  clock: Clock,
  locks: LedgerLocks,
  cache: AggregateCache,
  environment: Environment,
  streamId: string,
  command: LedgerCommand,
): Promise<LedgerCommandResult> {
  return locks.run(streamId, () =>
    retryOnConflict(async () => {
      const ledger = await cache.load(store, streamId, evolveLedger, initialLedgerState());
      const events = decideLedger(command, ledger.state, clock.now(environment));
      if (events.length === 0) return { ledgerVersion: ledger.version };
      const result = await appendWithReadModels(store, [
        {
          streamId,
          streamType: LEDGER_STREAM_TYPE,
          expectedVersion: expectedVersionOf(ledger.version),
          events: toNewEvents(events, LEDGER_EVENT_SCHEMA_VERSIONS),
        },
      ]);
      const version = result.streams[0]?.version ?? ledger.version;
      cache.remember(streamId, { state: events.reduce(evolveLedger, ledger.state), version });
      return { ledgerVersion: version };
    }),
  );
}

@CommandHandler(CreditFundsCommand)
export class CreditFundsHandler implements ICommandHandler<CreditFundsCommand, LedgerCommandResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly locks: LedgerLocks,
    private readonly cache: AggregateCache,
  ) {}

  execute(command: CreditFundsCommand): Promise<LedgerCommandResult> {
    const { accountId, environment, amount, reference } = command;
    return runLedgerCommand(
      this.store,
      this.clock,
      this.locks,
      this.cache,
      environment,
      ledgerStreamId(accountId, environment),
      {
        type: 'CreditFunds',
        data: { accountId, environment, amount, reference },
      },
    );
  }
}

@CommandHandler(SetLedgerLimitsCommand)
export class SetLedgerLimitsHandler implements ICommandHandler<SetLedgerLimitsCommand, LedgerCommandResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly locks: LedgerLocks,
    private readonly cache: AggregateCache,
  ) {}

  execute(command: SetLedgerLimitsCommand): Promise<LedgerCommandResult> {
    const { accountId, environment, limits } = command;
    return runLedgerCommand(
      this.store,
      this.clock,
      this.locks,
      this.cache,
      environment,
      ledgerStreamId(accountId, environment),
      {
        type: 'SetLedgerLimits',
        data: { accountId, environment, limits },
      },
    );
  }
}
