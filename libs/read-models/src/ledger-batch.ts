import {
  addMovements,
  LedgerEvent,
  LedgerLimits,
  LedgerMovement,
  ledgerMovement,
  LedgerOwner,
  ledgerOwnerFromStreamId,
  NO_MOVEMENT,
  upcastLedgerEvent,
} from '@payouts/domain';
import {
  addRunning,
  changedDraft,
  fillReleasesFromBatch,
  NO_RUNNING,
  RunningDeltas,
  TransactionChange,
  transactionChangesOf,
  TransactionDraft,
  transactionsOf,
} from './balance-transactions';
import { WrittenTransaction } from './balance-writes';
import { isContiguous, ProjectableEvent } from './projectable-event';

/**
 * A contiguous run of one ledger's events as the balance projection writes it
 * (ledger-batch-statements.ts), without I/O: everything the run does to the balance row, its
 * balance transactions and its settlements, worked out in memory in ledger order, so that a few
 * statements for many ledgers can apply it wherever the row is exactly at the version before the
 * run. A run of one event is the same as any other (balance.projection.ts, catchUpLedger, hands
 * over the run from a row's version):
 * - the row moves by the run's summed movements (the domain's ledgerMovement: the money's one
 *   rule, which evolveLedger applies too); a target or limits set in it are the last ones;
 * - rows the batch adds carry, in memory, what later events of the batch did to them
 *   (changedDraft), and what the rows after each still add to the balances;
 * - what the batch does to rows of earlier batches is worked out from its changes in ledger order
 *   (a cover takes a row only if it was no longer pending at the cover's version), so that the
 *   statement changes each such row once;
 * - a settlement started in the batch is inserted with what later events of the batch did to it;
 *   one started earlier gets the batch's outcome.
 */

/** A settlement started in the batch, as it stands at the batch's end. */
export interface SettlementStart {
  id: string;
  version: number;
  amount: string;
  trigger: string;
  retainedTarget: string;
  createdAt: string;
  status: 'in_transit' | 'paid' | 'failed';
  failureReason: string | null;
  paidAt: string | null;
  failedAt: string | null;
}

/**
 * What the batch does to rows of earlier batches, each row once, to where the batch leaves it: its
 * changes (transactionChangesOf) one at a time, in ledger order, come to this.
 */
export interface EarlierRowChanges {
  /** Orders matured (their pending rows become available), with the start that then covers them. */
  matured: { orderId: number; coveredBy: string | null }[];
  /** The batch's first start: it covers every row not pending when the batch began. */
  firstCover: string | null;
  /** The last outcome of each settlement, for its settlement row. */
  settled: { settlementId: string; status: 'paid' | 'failed' }[];
}

/** What the batch does to a settlement started before it: null leaves a column as it is. */
export interface SettlementOutcome {
  id: string;
  status: 'paid' | 'failed';
  failureReason: string | null;
  paidAt: string | null;
  failedAt: string | null;
}

export interface LedgerBatch {
  streamId: string;
  owner: LedgerOwner;
  fromVersion: number;
  upToVersion: number;
  /** The batch's movements summed: its retained target is the last one set in it, if any. */
  total: LedgerMovement;
  /** The last LedgerLimitsSet's limits of the batch, if any. */
  limits: LedgerLimits | null;
  at: string;
  /** The batch's rows; `running` is what the rows after each still add to the batch's end. */
  transactions: WrittenTransaction[];
  earlier: EarlierRowChanges;
  started: SettlementStart[];
  outcomes: SettlementOutcome[];
  /** Only money-moving, append-only events: the smaller statement is enough. */
  appendOnly: boolean;
}

export function ownerOf(streamId: string): LedgerOwner {
  const owner = ledgerOwnerFromStreamId(streamId);
  if (!owner) throw new Error(`${streamId} is not a ledger stream id`);
  return owner;
}

/** A stored ledger event as this version of the service reads it (upcastLedgerEvent). */
export function toLedgerEvent(event: { type: string; schemaVersion: number; data: unknown }): LedgerEvent {
  return upcastLedgerEvent(event);
}

/**
 * Events that only add to the figures and only add balance transactions (no earlier row changes,
 * no settlements, no target or limits): a batch of these alone takes the smaller statement.
 */
const APPEND_ONLY = new Set<LedgerEvent['type']>([
  'FundsCredited',
  'PayoutFundsReserved',
  'PayoutFundsReleased',
  'PayoutFundsSettled',
  'PaymentProceedsRecorded',
]);

/** A movement's effect on the four running balances the rows report. */
const runningMove = (m: LedgerMovement): RunningDeltas => ({
  pending: m.pending,
  available: m.available,
  holds: m.customerPayoutHolds,
  settlementHolds: m.merchantSettlementHolds,
});

const sameRunning = (a: RunningDeltas, b: RunningDeltas): boolean =>
  a.pending.eq(b.pending) &&
  a.available.eq(b.available) &&
  a.holds.eq(b.holds) &&
  a.settlementHolds.eq(b.settlementHolds);

/** The batch as the projection writes it, or null when it has a gap (catchUpLedger reads the stream). */
export function ledgerBatchOf(streamId: string, batch: readonly ProjectableEvent[]): LedgerBatch | null {
  if (!isContiguous(batch)) return null;
  const owner = ownerOf(streamId);
  const events = batch.map((event) => toLedgerEvent(event));
  let drafts: TransactionDraft[] = [];
  const eventOf: number[] = [];
  const changes: { version: number; change: TransactionChange }[] = [];
  const started = new Map<string, SettlementStart>();
  const outcomes = new Map<string, SettlementOutcome>();
  let limits: LedgerLimits | null = null;
  events.forEach((event, i) => {
    const version = batch[i]!.streamVersion;
    for (const change of transactionChangesOf(event)) {
      drafts = drafts.map((draft) => changedDraft(draft, change));
      changes.push({ version, change });
    }
    settle(event, version, started, outcomes);
    if (event.type === 'LedgerLimitsSet') limits = event.data.limits;
    for (const draft of transactionsOf(streamId, event, version)) {
      drafts.push(draft);
      eventOf.push(i);
    }
  });
  const rows = fillReleasesFromBatch(drafts);
  const movements = events.map(ledgerMovement);
  return {
    streamId,
    owner,
    fromVersion: batch[0]!.streamVersion,
    upToVersion: batch[batch.length - 1]!.streamVersion,
    total: movements.reduce(addMovements, NO_MOVEMENT),
    limits,
    at: events[events.length - 1]!.data.at,
    transactions: runningFromEnd(events, movements, rows, eventOf).map((running, i) => ({
      owner,
      draft: rows[i]!,
      running,
    })),
    earlier: earlierRowChanges(changes),
    started: [...started.values()],
    outcomes: [...outcomes.values()],
    appendOnly: events.every((event) => APPEND_ONLY.has(event.type)),
  };
}

/**
 * What every later row and event of the batch adds to the four running balances, for each row:
 * the statement subtracts it from the moved balance row to give the balances right after that row
 * without reading the row first. Events without rows (maturing, a paid settlement) still move them.
 */
function runningFromEnd(
  events: readonly LedgerEvent[],
  movements: readonly LedgerMovement[],
  rows: readonly TransactionDraft[],
  eventOf: readonly number[],
): RunningDeltas[] {
  const running: RunningDeltas[] = new Array<RunningDeltas>(rows.length);
  let after: RunningDeltas = NO_RUNNING;
  let row = rows.length - 1;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    let within = after;
    const hasRows = row >= 0 && eventOf[row] === i;
    for (; row >= 0 && eventOf[row] === i; row -= 1) {
      running[row] = within;
      within = addRunning(within, rows[row]!.effect);
    }
    after = addRunning(after, runningMove(movements[i]!));
    // An event's rows account for all its movement did to the four balances.
    if (hasRows && !sameRunning(within, after)) {
      throw new Error(
        `balance transactions of ${events[i]!.type} do not add up to its effect on the balance`,
      );
    }
  }
  return running;
}

/**
 * A cover takes a row that is no longer pending at its version: a row pending before the batch
 * and matured in it is taken by the first start after its maturing, any other uncovered row by the
 * batch's first start. A second maturing of one order finds no pending row left.
 */
function earlierRowChanges(
  changes: readonly { version: number; change: TransactionChange }[],
): EarlierRowChanges {
  const covers = changes.flatMap(({ version, change }) =>
    change.kind === 'cover' ? [{ version, settlementId: change.settlementId }] : [],
  );
  const matured = new Map<number, string | null>();
  const settled = new Map<string, 'paid' | 'failed'>();
  for (const { version, change } of changes) {
    if (change.kind === 'mature' && !matured.has(change.orderId)) {
      matured.set(change.orderId, covers.find((cover) => cover.version > version)?.settlementId ?? null);
    }
    if (change.kind === 'settle') settled.set(change.settlementId, change.status);
  }
  return {
    matured: [...matured].map(([orderId, coveredBy]) => ({ orderId, coveredBy })),
    firstCover: covers[0]?.settlementId ?? null,
    settled: [...settled].map(([settlementId, status]) => ({ settlementId, status })),
  };
}

/** A settlement event of the batch: folded into its start when that is in the batch too. */
function settle(
  event: LedgerEvent,
  version: number,
  started: Map<string, SettlementStart>,
  outcomes: Map<string, SettlementOutcome>,
): void {
  if (event.type === 'SettlementStarted') {
    const { settlementId, amount, trigger, retainedTarget, at } = event.data;
    // A second start of one id changes nothing, as the INSERT … ON CONFLICT DO NOTHING of one earlier.
    if (started.has(settlementId)) return;
    started.set(settlementId, {
      id: settlementId,
      version,
      amount,
      trigger,
      retainedTarget,
      createdAt: at,
      status: 'in_transit',
      failureReason: null,
      paidAt: null,
      failedAt: null,
    });
    return;
  }
  if (event.type !== 'SettlementPaid' && event.type !== 'SettlementFailed') return;
  const id = event.data.settlementId;
  const outcome =
    event.type === 'SettlementPaid'
      ? { status: 'paid' as const, paidAt: event.data.at }
      : { status: 'failed' as const, failureReason: event.data.reason, failedAt: event.data.at };
  const start = started.get(id);
  if (start) {
    started.set(id, { ...start, ...outcome });
    return;
  }
  const before = outcomes.get(id) ?? { id, failureReason: null, paidAt: null, failedAt: null };
  outcomes.set(id, { ...before, ...outcome });
}
