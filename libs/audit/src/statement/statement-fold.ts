import Big from 'big.js';
import {
  Environment,
  evolveLedger,
  initialLedgerState,
  LedgerEvent,
  LedgerFigures,
  LedgerState,
  ledgerStreamId,
} from '@payouts/domain';
import {
  addRunning,
  fillReleasesFromBatch,
  RunningDeltas,
  toLedgerEvent,
  TransactionDraft,
  transactionsOf,
} from '@payouts/read-models';
import type { AuditEvent } from '../feed/audit-feed';
import { Finding, FindingKind, ledgerRefusalKind, messageOf } from '../verify/findings';
import { differingFigures, figuresOf } from './statement-figures';
import { StatementLine } from './statement-line';
import { statementOnlyLine } from './statement-only-lines';

/** One ledger and a time window: `from` inclusive, `to` exclusive (docs/audit.md). */
export interface StatementRequest {
  accountId: string;
  environment: Environment;
  currency: string;
  from: Date;
  to: Date;
}

/**
 * The read side's part of a statement: the balance transactions an event adds, as the projector
 * writes them. A parameter so that a test can hand the fold a broken one and see each check
 * refuse it.
 */
export interface ReadSideArithmetic {
  transactionsOf: typeof transactionsOf;
}
export const READ_SIDE_ARITHMETIC: ReadSideArithmetic = { transactionsOf };

/** The statement cannot be trusted past this point: printed as a finding line, exit 1. */
export class StatementFindingError extends Error {
  constructor(readonly finding: Finding) {
    super(finding.detail);
  }
}

/**
 * A statement, one ledger event at a time in stream order. The figures are the ledger's own fold
 * (evolveLedger, which moves the money by ledgerMovement, the rule the balance projection adds
 * too, and refuses an event the service could not have written); each movement line is a balance
 * transaction the projector writes (transactionsOf), its running figures the ledger's before the
 * event plus the rows so far, checked to come to the ledger's after it. The window is cut at the
 * first event at or after `from`, and at the first one after that at or after `to`: a contiguous
 * run of the stream, so opening + the movements = closing whatever the events' times.
 */
export class StatementFold {
  readonly streamId: string;
  private ledger: LedgerState = initialLedgerState();
  /** The last event folded (0: none). */
  private version = 0;
  /** Reservation rows of payouts still open: a release shows its reservation's amount and fee. */
  private readonly reservations = new Map<string, TransactionDraft>();
  private phase: 'before' | 'within' | 'closed' = 'before';
  /** pending + available at the opening, and the nets of the movements since. */
  private openingMoney = new Big(0);
  private nets = new Big(0);
  private lastPosition: string | null = null;

  constructor(
    private readonly request: StatementRequest,
    private readonly readSide: ReadSideArithmetic = READ_SIDE_ARITHMETIC,
  ) {
    const { accountId, environment, currency } = request;
    this.streamId = ledgerStreamId(accountId, environment, currency);
  }

  /** Past `to`: no later event can change the statement, so the reader stops. */
  get closed(): boolean {
    return this.phase === 'closed';
  }

  /** The lines this event adds: the opening or closing line first when it crosses a cut. */
  push(stored: AuditEvent): StatementLine[] {
    if (this.phase === 'closed') return [];
    const version = this.version + 1;
    if (stored.streamVersion !== version) {
      const kind = stored.streamVersion < version ? 'version_duplicate' : 'version_gap';
      throw this.finding(kind, stored.position, `expected version ${version}, read ${stored.streamVersion}`);
    }
    let event: LedgerEvent;
    try {
      event = toLedgerEvent({
        type: stored.eventType,
        schemaVersion: stored.schemaVersion,
        data: stored.data,
      });
    } catch (error) {
      throw this.finding(ledgerRefusalKind(error), stored.position, messageOf(error));
    }
    const lines: StatementLine[] = [];
    const at = Date.parse(event.data.at);
    if (this.phase === 'before' && at >= this.request.from.getTime()) lines.push(this.open());
    if (this.phase === 'within' && at >= this.request.to.getTime()) return [...lines, this.close()];
    lines.push(...this.apply(event, version, stored.position));
    this.lastPosition = stored.position;
    return lines;
  }

  /** After the last event: the opening (if no event reached `from`) and the closing line. */
  finish(): StatementLine[] {
    const lines: StatementLine[] = [];
    if (this.phase === 'before') lines.push(this.open());
    if (this.phase === 'within') lines.push(this.close());
    return lines;
  }

  private apply(event: LedgerEvent, version: number, position: string): StatementLine[] {
    const before = this.ledger;
    try {
      this.ledger = evolveLedger(before, event);
    } catch (error) {
      throw this.finding(ledgerRefusalKind(error), position, messageOf(error));
    }
    this.version = version;
    const within = this.phase === 'within';
    const drafts = this.rowsOf(event, version, within);
    if (!within) return [];
    const lines =
      drafts.length > 0 ? this.rowLines(drafts, before, position) : this.otherLine(event, before, position);
    for (const line of lines) this.nets = this.nets.plus(line.net ?? '0');
    return lines;
  }

  /**
   * The event's balance transactions, a release completed from its reservation. Before the window
   * only the open reservations are kept (a release in it shows their amount and fee): every
   * reservation is forgotten when it ends, so they cost memory only while open.
   */
  private rowsOf(event: LedgerEvent, version: number, within: boolean): TransactionDraft[] {
    if (event.type === 'PayoutFundsReserved') {
      const drafts = this.readSide.transactionsOf(this.streamId, event, version);
      for (const draft of drafts) this.reservations.set(event.data.payoutId, draft);
      return within ? drafts : [];
    }
    if (event.type !== 'PayoutFundsReleased' && event.type !== 'PayoutFundsSettled') {
      return within ? this.readSide.transactionsOf(this.streamId, event, version) : [];
    }
    const reservation = this.reservations.get(event.data.payoutId);
    this.reservations.delete(event.data.payoutId);
    if (!within) return [];
    const drafts = this.readSide.transactionsOf(this.streamId, event, version);
    return reservation ? fillReleasesFromBatch([reservation, ...drafts]).slice(1) : drafts;
  }

  /** One line per balance transaction, its running figures counted as the projector counts them. */
  private rowLines(drafts: TransactionDraft[], before: LedgerState, position: string): StatementLine[] {
    let running = runningOf(before);
    const lines = drafts.map((draft) => {
      running = addRunning(running, draft.effect);
      return this.movement(draft, withRunning(this.ledger, running));
    });
    const expected = runningOf(this.ledger);
    const keys = ['pending', 'available', 'holds', 'settlementHolds'] as const;
    if (keys.some((key) => !running[key].eq(expected[key]))) {
      throw this.finding(
        'statement_mismatch',
        position,
        "the event's balance transactions do not add up to it",
      );
    }
    return lines;
  }

  /** An event without balance transactions: its own line when it changes a figure, else none. */
  private otherLine(event: LedgerEvent, before: LedgerState, position: string): StatementLine[] {
    const line = statementOnlyLine(event);
    if (line) {
      return [{ ...this.blank('movement', event.data.at, this.version), ...line, fee: '0.00', net: '0.00' }];
    }
    if (differingFigures(figuresOf(before), figuresOf(this.ledger)).length === 0) return [];
    throw this.finding('statement_mismatch', position, `${event.type} moved a figure without a line`);
  }

  private movement(draft: TransactionDraft, figures: LedgerFigures): StatementLine {
    return {
      kind: 'movement',
      time: draft.createdAt,
      ledgerVersion: draft.ledgerVersion,
      type: draft.type,
      transactionId: draft.id,
      currency: this.request.currency,
      orderId: draft.orderId,
      payoutId: draft.payoutId,
      settlementId: draft.settlementId,
      description: draft.description,
      amount: draft.amount,
      fee: draft.fee,
      net: draft.net,
      figures: figuresOf(figures),
    };
  }

  private open(): StatementLine {
    this.phase = 'within';
    this.openingMoney = this.ledger.pending.plus(this.ledger.available);
    return this.cut('opening', this.request.from, 'Opening balance');
  }

  /** Asserts opening + the movements = closing before it prints the closing line. */
  private close(): StatementLine {
    const money = this.ledger.pending.plus(this.ledger.available);
    if (!this.openingMoney.plus(this.nets).eq(money)) {
      throw this.finding(
        'statement_mismatch',
        this.lastPosition,
        `opening pending + available ${this.openingMoney.toFixed(2)} + nets ${this.nets.toFixed(2)} != closing ${money.toFixed(2)}`,
      );
    }
    this.phase = 'closed';
    return this.cut('closing', this.request.to, 'Closing balance');
  }

  private cut(kind: 'opening' | 'closing', time: Date, what: string): StatementLine {
    const line = this.blank(kind, time.toISOString(), this.version);
    return { ...line, description: `${what} of ${this.streamId} at ${line.time}` };
  }

  private blank(kind: StatementLine['kind'], time: string, ledgerVersion: number): StatementLine {
    return {
      kind,
      time,
      ledgerVersion,
      type: null,
      transactionId: null,
      currency: this.request.currency,
      orderId: null,
      payoutId: null,
      settlementId: null,
      description: '',
      amount: null,
      fee: null,
      net: null,
      figures: figuresOf(this.ledger),
    };
  }

  private finding(kind: FindingKind, position: string | null, detail: string): StatementFindingError {
    return new StatementFindingError({ kind, position, streamId: this.streamId, detail });
  }
}

const runningOf = (ledger: LedgerFigures): RunningDeltas => ({
  pending: ledger.pending,
  available: ledger.available,
  holds: ledger.customerPayoutHolds,
  settlementHolds: ledger.merchantSettlementHolds,
});

/** The ledger after the event, with the four running figures as they stand after one of its rows. */
const withRunning = (ledger: LedgerFigures, running: RunningDeltas): LedgerFigures => ({
  ...ledger,
  pending: running.pending,
  available: running.available,
  customerPayoutHolds: running.holds,
  merchantSettlementHolds: running.settlementHolds,
});
