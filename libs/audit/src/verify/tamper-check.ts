import { chainLink, GENESIS_LINK } from '../chain/chain-link';
import { isBehindCheckpoint, StoredLink } from '../chain/chain-store';
import { AuditEvent, compareFeedKeys, FeedKey } from '../feed/audit-feed';
import { ReportFinding } from './findings';

export interface ChainSummary {
  /** Links read and compared. */
  links: number;
  /** Events after the chain keeper's checkpoint: not evidence either way yet. */
  notYetChained: number;
  headLink: string | null;
  headPosition: string | null;
}

/**
 * Recomputes the chain from position zero beside the stored links, both in feed order (a merge
 * of two sorted reads, so memory stays about one page of each). After a mismatch it continues
 * from the stored link, so each tampered event is reported once, at its own position, instead of
 * every link after it.
 */
export class TamperCheck {
  private previous = GENESIS_LINK;
  private lastSeq = 0n;
  /** Links read and not yet matched, in feed order, from `next` on. */
  private links: StoredLink[] = [];
  private next = 0;
  private exhausted = false;
  private readonly summary: ChainSummary = { links: 0, notYetChained: 0, headLink: null, headPosition: null };

  constructor(
    private readonly pages: AsyncIterator<StoredLink[]>,
    /** The chain keeper's checkpoint: an event at or before it must have a link. */
    private readonly checkpoint: FeedKey,
    private readonly report: ReportFinding,
  ) {}

  /**
   * Reads link pages until the links reach past `key` (or the chain ends), so that onEvent needs
   * no read for any event up to `key`: called once per page of events, with its last key.
   */
  async readThrough(key: FeedKey): Promise<void> {
    while (!this.exhausted) {
      const last = this.links[this.links.length - 1];
      if (last !== undefined && this.next < this.links.length && compareFeedKeys(last, key) >= 0) return;
      const page = await this.pages.next();
      if (page.done) this.exhausted = true;
      else {
        this.links =
          this.next < this.links.length ? [...this.links.slice(this.next), ...page.value] : page.value;
        this.next = 0;
      }
    }
  }

  /** One event in feed order, at or before the key given to readThrough last. */
  onEvent(event: AuditEvent): void {
    for (let link = this.peek(event); link !== null; link = this.peek(event)) {
      const order = compareFeedKeys(link, event);
      if (order > 0) break;
      this.next += 1;
      if (order < 0) {
        this.report({
          kind: 'deleted',
          position: link.position,
          streamId: link.streamId,
          detail: 'the chain has a link for this position but the event is gone',
        });
      } else if (BigInt(link.seq) !== this.lastSeq + 1n) {
        // A hole in the links (reported by accept): the previous link is gone, so this one's hash
        // cannot be checked; the hole is the finding.
      } else if (chainLink(this.previous, event) !== link.link) {
        this.report({
          kind: 'edited',
          position: event.position,
          streamId: event.streamId,
          detail: `${event.eventType} v${event.streamVersion} does not hash to its stored link (changed after it was chained)`,
        });
      }
      this.accept(link);
      if (order === 0) return;
    }
    if (isBehindCheckpoint(event, this.checkpoint)) {
      this.report({
        kind: 'inserted',
        position: event.position,
        streamId: event.streamId,
        detail: `${event.eventType} v${event.streamVersion} has no link although the chain has passed its place in the feed`,
      });
    } else {
      this.summary.notYetChained += 1;
    }
  }

  /** Links left after the last event belong to events that are gone. */
  async finish(): Promise<ChainSummary> {
    for (;;) {
      const link = this.links[this.next];
      if (link === undefined) {
        if (this.exhausted) break;
        const page = await this.pages.next();
        if (page.done) this.exhausted = true;
        else [this.links, this.next] = [page.value, 0];
        continue;
      }
      this.next += 1;
      this.report({
        kind: 'deleted',
        position: link.position,
        streamId: link.streamId,
        detail: 'the chain has a link for this position but the event is gone',
      });
      this.accept(link);
    }
    return this.summary;
  }

  private accept(link: StoredLink): void {
    const seq = BigInt(link.seq);
    if (seq !== this.lastSeq + 1n) {
      this.report({
        kind: 'link_missing',
        position: link.position,
        streamId: link.streamId,
        detail: `link #${seq} follows link #${this.lastSeq}: links (and probably their events) were removed before this position`,
      });
    }
    this.lastSeq = seq;
    this.previous = link.link;
    this.summary.links += 1;
    this.summary.headLink = link.link;
    this.summary.headPosition = link.position;
  }

  /** The next link, if read; past the links read, only the end of the chain is an answer. */
  private peek(event: AuditEvent): StoredLink | null {
    const link = this.links[this.next];
    if (link !== undefined || this.exhausted) return link ?? null;
    throw new Error(`links were not read through ${event.position} before its event was checked`);
  }
}
