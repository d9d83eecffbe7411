import type { StoredLink } from '../chain/chain-store';
import type { AuditEvent, FeedKey } from '../feed/audit-feed';
import { canonicalJsonbText } from '../chain/canonical-jsonb-text';
import type { Finding } from './findings';
import { foldedBesideTheChain } from './fold-split';
import { FoldEnd, FoldPass } from './fold-pass';
import { ChainSummary, TamperCheck } from './tamper-check';
import { splitLine } from './verify-line';

/**
 * What the tamper check needs of a page, as flat arrays of strings and numbers: a page crosses to
 * the chain's thread as one structured clone of plain values, several times cheaper than an array
 * of objects (docs/performance.md). Events: CHAINED_FIELDS values each; links: LINK_FIELDS each.
 */
export type FlatPage = (string | number)[];

/** streamId, streamType, eventType, and the rest of the row as one line (verify-line.ts: VerifyLine) */
export const CHAINED_FIELDS = 4;
/** position, transactionId, streamId, seq, link */
export const LINK_FIELDS = 5;

/** A finding and the index (0, 1, ...) in feed order of the event being checked when it was made. */
export interface IndexedFinding {
  index: number;
  finding: Finding;
}

export interface ChainEnd {
  findings: Finding[];
  summary: ChainSummary;
  /** The end of the streams folded here (fold-split.ts). */
  folds: FoldEnd;
}

/**
 * The hash-chain side of verify (TamperCheck) fed page by page: links read by the caller, then
 * each page of events with the index of its first event. It also folds the streams that
 * fold-split.ts gives this side, each event after its link. Findings come back with the index of
 * the event they were made at, so the caller can interleave them with its own in the order a
 * single pass would print them. Used on the chain's worker thread, or in the caller's thread when
 * there is no compiled worker to start (the TypeScript test runs).
 */
export class ChainChecker {
  private readonly linkPages: StoredLink[][] = [];
  private linksEnded = false;
  private waiting: (() => void) | null = null;
  private readonly tamper: TamperCheck;
  private found: IndexedFinding[] = [];
  private readonly folds = new FoldPass((found) => this.found.push(found));
  private at = -1;

  constructor(checkpoint: FeedKey) {
    this.tamper = new TamperCheck(this.pages(), checkpoint, (finding) =>
      this.found.push({ index: this.at, finding }),
    );
  }

  links(flat: FlatPage): void {
    const page: StoredLink[] = [];
    for (let i = 0; i < flat.length; i += LINK_FIELDS) {
      page.push({
        position: flat[i] as string,
        transactionId: flat[i + 1] as string,
        streamId: flat[i + 2] as string,
        seq: flat[i + 3] as string,
        link: flat[i + 4] as string,
      });
    }
    this.linkPages.push(page);
    this.wake();
  }

  linksEnd(): void {
    this.linksEnded = true;
    this.wake();
  }

  /** One page of events in feed order; its links (through its last event, or the end) were given first. */
  async events(first: number, flat: FlatPage): Promise<IndexedFinding[]> {
    const count = flat.length / CHAINED_FIELDS;
    const last = splitLine(flat[(count - 1) * CHAINED_FIELDS + 3] as string);
    await this.tamper.readThrough({ position: last.position, transactionId: last.transactionId });
    for (let n = 0; n < count; n += 1) {
      this.at = first + n;
      const offset = n * CHAINED_FIELDS;
      const foldedHere = foldedBesideTheChain(flat[offset] as string);
      const event = chainedEvent(flat, offset, foldedHere);
      this.tamper.onEvent(event);
      if (foldedHere) this.folds.accept(event, this.at);
    }
    return this.take();
  }

  /** After the last page of events and every link: links left belong to events that are gone. */
  async finish(): Promise<ChainEnd> {
    this.at = -1;
    const summary = await this.tamper.finish();
    return { findings: this.take().map((indexed) => indexed.finding), summary, folds: this.folds.finish() };
  }

  private take(): IndexedFinding[] {
    const found = this.found;
    this.found = [];
    return found;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  /** The link pages as TamperCheck reads them: given ones in order, then the end once told. */
  private async *pages(): AsyncGenerator<StoredLink[]> {
    for (;;) {
      const page = this.linkPages.shift();
      if (page !== undefined) yield page;
      else if (this.linksEnded) return;
      else await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

/**
 * An event as the tamper check and this side's folds read it. Its data is parsed only for a stream
 * folded here (fold-split.ts), or when its canonical text cannot be read off jsonb's text;
 * otherwise `data` is undefined and the link is made from `canonicalData`.
 */
function chainedEvent(flat: FlatPage, at: number, foldedHere: boolean): AuditEvent {
  const line = splitLine(flat[at + 3] as string);
  const canonicalData = canonicalJsonbText(line.data) ?? undefined;
  const parsed = canonicalData === undefined || foldedHere;
  return {
    position: line.position,
    transactionId: line.transactionId,
    eventId: line.eventId,
    streamId: flat[at] as string,
    streamType: flat[at + 1] as string,
    streamVersion: line.streamVersion,
    eventType: flat[at + 2] as string,
    schemaVersion: line.schemaVersion,
    data: parsed ? (JSON.parse(line.data) as unknown) : undefined,
    canonicalData,
    // toAuditEvent reads a null metadata as {}: the same link either way. Most events carry none,
    // and `{}` needs no parse (the link hashes its canonical text, which is `{}` either way).
    metadata: line.metadata === '{}' ? {} : ((JSON.parse(line.metadata) as unknown) ?? {}),
    recordedAt: line.recordedAt,
  };
}
