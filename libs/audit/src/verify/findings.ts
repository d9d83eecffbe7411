/**
 * What verify can find. Each is a reason to stop and look (docs/audit.md says what to do next);
 * none is ever repaired by the tool.
 */
export type FindingKind =
  // Tamper evidence (the hash chain).
  | 'edited'
  | 'deleted'
  | 'inserted'
  | 'link_missing'
  // The aggregates, folded through the domain's own evolve functions.
  | 'ledger_invariant'
  | 'float_invariant'
  | 'illegal_transition'
  | 'unknown_event'
  | 'unchecked_stream_type'
  | 'stream_mismatch'
  | 'version_gap'
  | 'version_duplicate'
  // Paid payouts and paid orders.
  | 'duplicate_webhook_event_id'
  | 'paid_order_without_proceeds'
  | 'proceeds_without_paid_order'
  | 'proceeds_mismatch'
  | 'duplicate_proceeds'
  // A statement (one ledger's movements) whose figures do not reconcile.
  | 'statement_mismatch';

export interface Finding {
  kind: FindingKind;
  /** The event's global position (decimal string), or null when the finding is about no one event. */
  position: string | null;
  streamId: string | null;
  detail: string;
  /** What follows from this finding and is not reported on its own; absent when nothing does. */
  consequence?: Consequence;
}

/**
 * What one finding leaves behind in its stream (docs/audit.md, "One cause, its consequences"):
 * once a stream's fold or version order is broken, every later event of it would fail or could
 * not be placed, so verify stops checking the stream and counts those events instead.
 */
export interface Consequence {
  streamId: string;
  /** Events of the stream after the finding's, to the end of the log, that were not checked. */
  uncheckedEvents: number;
  /**
   * Paid orders and proceeds left unpaired because their other half (the proceeds on this ledger,
   * the OrderPaid on this order) is among those events: not reported each.
   */
  unpaired: number;
  /** The stream's own finding, when a chain finding is its cause (the version gap a deleted event leaves). */
  finding?: { kind: FindingKind; position: string | null; detail: string };
}

export type ReportFinding = (finding: Finding) => void;

/**
 * A stream's fold or version order is no longer the log's after one of these: its later events
 * are counted, not checked. The chain's kinds are about the log, not a stream's fold; the paid
 * checks' findings and an unchecked stream type leave every fold as it was.
 */
const STOPS_ITS_STREAM: ReadonlySet<FindingKind> = new Set<FindingKind>([
  'ledger_invariant',
  'float_invariant',
  'illegal_transition',
  'unknown_event',
  'stream_mismatch',
  'version_gap',
  'version_duplicate',
]);

export function stopsItsStream(kind: FindingKind): boolean {
  return STOPS_ITS_STREAM.has(kind);
}

/**
 * `finding <kind> position=<n> stream=<id>: <detail>` (grep- and cut-friendly), then a line for
 * each consequence, indented under it: the stream's own finding that the cause explains (in the
 * same form, `consequence` for `finding`), and how many of the stream's later events were not checked.
 */
export function formatFinding(finding: Finding): string {
  const line = `finding ${finding.kind} position=${finding.position ?? '-'} stream=${finding.streamId ?? '-'}: ${oneLine(finding.detail)}`;
  const consequence = finding.consequence;
  if (consequence === undefined) return line;
  const lines = [line];
  const own = consequence.finding;
  if (own !== undefined) {
    lines.push(
      `  consequence ${own.kind} position=${own.position ?? '-'} stream=${consequence.streamId}: ${oneLine(own.detail)}`,
    );
  }
  if (consequence.uncheckedEvents > 0) {
    const unpaired =
      consequence.unpaired > 0
        ? `, nor ${consequence.unpaired} paid order(s) or proceeds whose other half is among them`
        : '';
    lines.push(
      `  consequence: ${consequence.uncheckedEvents} later event(s) of stream ${consequence.streamId} could not be checked${unpaired}`,
    );
  }
  return lines.join('\n');
}

function oneLine(detail: string): string {
  return detail.replace(/[\r\n]+/g, ' ');
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a ledger event the domain's upcast or evolve refused is: the kind its error message says. */
export function ledgerRefusalKind(error: unknown): FindingKind {
  const message = messageOf(error);
  if (/invariant broken/.test(message)) return 'ledger_invariant';
  if (/schema version|unknown ledger event/.test(message)) return 'unknown_event';
  return 'illegal_transition';
}
