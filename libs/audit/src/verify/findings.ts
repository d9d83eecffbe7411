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
}

export type ReportFinding = (finding: Finding) => void;

/** One line: `finding <kind> position=<n> stream=<id>: <detail>` (grep- and cut-friendly). */
export function formatFinding(finding: Finding): string {
  const detail = finding.detail.replace(/[\r\n]+/g, ' ');
  return `finding ${finding.kind} position=${finding.position ?? '-'} stream=${finding.streamId ?? '-'}: ${detail}`;
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
