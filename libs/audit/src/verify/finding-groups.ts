import { Consequence, Finding, FindingKind, stopsItsStream } from './findings';

/**
 * At most this many findings are kept for the end of the log and printed; the rest are counted,
 * so a log broken everywhere (a finding at every event) cannot fill the memory (Tiger style: a limit).
 */
export const MAX_KEPT_FINDINGS = 10_000;

/** The chain's findings about one event that a stream's own finding can follow from. */
const CHAIN_CAUSES: ReadonlySet<FindingKind> = new Set<FindingKind>(['edited', 'deleted', 'inserted']);

/** A stream's latest chain finding, and the kept finding that stands for it (null: not kept). */
interface ChainCause {
  kind: FindingKind;
  index: number;
  position: string | null;
  finding: Finding | null;
}

/**
 * verify's findings in print order, each cause with what follows from it (docs/audit.md, "One
 * cause, its consequences"). A stream's consequences are known only at the end of the log (its
 * later events are counted to the end), so findings are kept until then and handed out at once.
 *
 * Each stream has at most one finding that stops it (fold-pass.ts). That finding is put under the
 * chain finding that caused it, instead of standing on its own: the version gap a deleted event
 * of the stream leaves (the gap began to wait at or after the event where the deletion was seen),
 * or the refusal of an edited or inserted event itself (the same position). What the stream left
 * unchecked goes to whichever finding stands for it.
 */
export class FindingGroups {
  private readonly findings: Finding[] = [];
  private counted = 0;
  private readonly chainCauses = new Map<string, ChainCause>();
  /** Each stopped stream's cause as printed (null: not kept), for its consequence at the end. */
  private readonly causes = new Map<string, Finding | null>();

  constructor(private readonly limit = MAX_KEPT_FINDINGS) {}

  /** A finding, in print order, made at feed index `index` (a gap: where its stream began to wait). */
  add(finding: Finding, index: number): void {
    const streamId = finding.streamId;
    if (streamId !== null && CHAIN_CAUSES.has(finding.kind)) {
      const kept = this.keep(finding);
      this.chainCauses.set(streamId, {
        kind: finding.kind,
        index,
        position: finding.position,
        finding: kept,
      });
      return;
    }
    if (streamId === null || !stopsItsStream(finding.kind)) {
      this.keep(finding);
      return;
    }
    const chain = this.chainCauses.get(streamId);
    if (chain !== undefined && follows(finding, index, chain)) {
      const { kind, position, detail } = finding;
      if (chain.finding !== null) {
        chain.finding.consequence = {
          streamId,
          uncheckedEvents: 0,
          unpaired: 0,
          finding: { kind, position, detail },
        };
      }
      this.causes.set(streamId, chain.finding);
      return;
    }
    this.causes.set(streamId, this.keep(finding));
  }

  /** What a stream stopped while the log was read left unchecked: put under the finding that stands for its cause. */
  addConsequence(consequence: Consequence): void {
    const cause = this.causes.get(consequence.streamId);
    if (cause === undefined || cause === null) return;
    const own = cause.consequence?.finding;
    cause.consequence = own === undefined ? consequence : { ...consequence, finding: own };
  }

  /** The findings kept, in print order, with their consequences. */
  kept(): readonly Finding[] {
    return this.findings;
  }

  /** Every finding that stands on its own, kept or not. */
  get count(): number {
    return this.counted;
  }

  private keep(finding: Finding): Finding | null {
    this.counted += 1;
    if (this.findings.length >= this.limit) return null;
    this.findings.push(finding);
    return finding;
  }
}

function follows(finding: Finding, index: number, chain: ChainCause): boolean {
  if (chain.kind === 'deleted') return finding.kind === 'version_gap' && index >= chain.index;
  return finding.position === chain.position;
}
