import {
  evolveLedger,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerEvent,
  LedgerState,
} from '@payouts/domain';
import { LoadedAggregate } from './aggregate-streams';
import { Decision } from './decision';
import { oneStreamDecision } from './one-stream-decision';
import type { PlannedRow } from './planned-row';

/**
 * The Decision of a command on one ledger: its events in one append at the version
 * read, and the work-list rows that follow from the state after them (none when nothing happened).
 */
export function ledgerDecision<Result>(
  streamId: string,
  loaded: LoadedAggregate<LedgerState>,
  events: readonly LedgerEvent[],
  rows: (after: LedgerState) => readonly PlannedRow[],
  result: (after: LedgerState, version: number) => Result,
): Decision<Result> {
  const decision = oneStreamDecision({
    streamId,
    streamType: LEDGER_STREAM_TYPE,
    schemaVersions: LEDGER_EVENT_SCHEMA_VERSIONS,
    loaded,
    events,
    evolve: evolveLedger,
    result,
  });
  if (events.length === 0) return decision;
  const after = events.reduce(evolveLedger, loaded.state);
  return { ...decision, plan: { ...decision.plan, rows: [...decision.plan.rows, ...rows(after)] } };
}
