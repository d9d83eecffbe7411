import type { SqlQueryable } from '@payouts/database';
import { chainCheckpoint, StoredLink, storedLinkPages } from '../chain/chain-store';
import { AUDIT_BATCH_SIZE, compareFeedKeys, FeedKey } from '../feed/audit-feed';
import { FlatPage, IndexedFinding } from './chain-checker';
import { ChainSide, openChainSide } from './chain-thread';
import { FindingGroups } from './finding-groups';
import { ReportFinding } from './findings';
import { foldedBesideTheChain } from './fold-split';
import { FoldPass } from './fold-pass';
import { ChainSummary } from './tamper-check';
import { chainedPage, foldedEvent, verifyPages, verifyRowKey } from './verify-feed';
import { splitLine } from './verify-line';

/** The audit cannot run here (no chain table, say): exit code 2, never a finding. */
export class AuditSetupError extends Error {}

export interface VerifyOptions {
  /**
   * Each finding, in print order with its consequence attached, once the whole log is read (a
   * consequence is counted to the end of the log): at most MAX_KEPT_FINDINGS of them; the report
   * counts them all.
   */
  onFinding: ReportFinding;
  /** Called every `progressEvery` events with the count so far and the last position. */
  onProgress?: (events: number, position: string) => void;
  progressEvery?: number;
  batchSize?: number;
}

export interface VerifyReport {
  events: number;
  /** Findings that stand on their own (one grouped under its cause is its consequence, not counted). */
  findings: number;
  streams: number;
  chain: ChainSummary;
  elapsedMs: number;
}

/** Pages sent to the chain's side and not yet answered (Tiger style: a limit); memory is a few pages. */
const CHAIN_PAGES_IN_FLIGHT = 4;

/** A page checked by this thread, waiting for the chain's findings at the same events. */
interface Checked {
  found: IndexedFinding[];
  chain: Promise<IndexedFinding[]>;
}

/**
 * Reads the whole log once, in feed order, and runs every check on each event as it passes: the
 * hash chain, stream versions, the aggregates' folds, paid payouts and orders. Reads only: it
 * never writes, so it can run against production or a copy of it.
 *
 * The hash chain is checked on a second thread (chain-thread.ts) from the same read: this thread
 * reads the links and the events, folds, and sends each page on. The chain's thread also folds
 * the payouts' streams (fold-split.ts). Findings are printed in the order one thread would make
 * them: page by page, at each event the chain's before the folds'; at the end, the chain's, then
 * the version gaps of both threads in the order their streams began to wait, then the paid checks'.
 * What each stopped stream left unchecked comes from its thread at the end, and FindingGroups puts
 * it under the stream's cause (a stream is folded on one thread only, so each has one cause).
 */
export async function verifyLog(db: SqlQueryable, options: VerifyOptions): Promise<VerifyReport> {
  await requireChainTable(db);
  const started = Date.now();
  const groups = new FindingGroups();
  const uncheckedTypes = new Set<string>();
  const report = ({ index, finding }: IndexedFinding) => {
    // Each thread's folds report a stream type they cannot check once; across both, the first stands.
    if (finding.kind === 'unchecked_stream_type') {
      if (uncheckedTypes.has(finding.detail)) return;
      uncheckedTypes.add(finding.detail);
    }
    groups.add(finding, index);
  };
  const batchSize = options.batchSize ?? AUDIT_BATCH_SIZE;
  // The checkpoint first: links and events read afterwards can only be further along.
  const checkpoint = await chainCheckpoint(db);
  const chain = openChainSide(checkpoint);
  try {
    const links = new LinkFeed(storedLinkPages(db, batchSize), chain);
    let found: IndexedFinding[] = [];
    let at = 0;
    const folds = new FoldPass((finding) => found.push(finding));
    const progressEvery = options.progressEvery ?? 10_000;
    const checked: Checked[] = [];
    for await (const page of verifyPages(db, batchSize)) {
      await links.sendThrough(verifyRowKey(page[page.length - 1]!));
      const first = at;
      const chainFound = chain.events(first, chainedPage(page));
      // Awaited in turn below; if the chain's thread fails, every page still waiting fails with it.
      chainFound.catch(() => undefined);
      for (const row of page) {
        if (!foldedBesideTheChain(row.stream_id)) folds.accept(foldedEvent(row), at);
        at += 1;
        if (options.onProgress && at % progressEvery === 0)
          options.onProgress(at, splitLine(row.line).position);
      }
      checked.push({ found, chain: chainFound });
      found = [];
      if (checked.length >= CHAIN_PAGES_IN_FLIGHT)
        interleave(await checked[0]!.chain, checked.shift()!.found, report);
    }
    while (checked.length > 0) interleave(await checked[0]!.chain, checked.shift()!.found, report);
    await links.sendRest();
    const end = await chain.finish();
    // Links left after the last event: past every event, so no gap can follow from them.
    for (const finding of end.findings) report({ index: at, finding });
    const mine = folds.finish();
    interleave(end.folds.gaps, mine.gaps, report);
    for (const finding of [...mine.unmatched, ...end.folds.unmatched]) report({ index: at, finding });
    for (const consequence of [...mine.consequences, ...end.folds.consequences])
      groups.addConsequence(consequence);
    for (const finding of groups.kept()) options.onFinding(finding);
    return {
      events: at,
      findings: groups.count,
      streams: mine.streams + end.folds.streams,
      chain: end.summary,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await chain.close();
  }
}

/** One page's findings in a single pass's order: by event, the chain's first (both lists are in event order). */
function interleave(
  chain: IndexedFinding[],
  folds: IndexedFinding[],
  report: (found: IndexedFinding) => void,
): void {
  let c = 0;
  for (const fold of folds) {
    while (c < chain.length && chain[c]!.index <= fold.index) report(chain[c++]!);
    report(fold);
  }
  while (c < chain.length) report(chain[c++]!);
}

/**
 * Sends the chain's side the stored links a page at a time, ahead of the events that need them:
 * before a page of events, links through its last event (or all there are), as
 * TamperCheck.readThrough would have read them.
 */
class LinkFeed {
  private last: FeedKey | null = null;
  private ended = false;

  constructor(
    private readonly pages: AsyncIterator<StoredLink[]>,
    private readonly chain: ChainSide,
  ) {}

  async sendThrough(key: FeedKey): Promise<void> {
    while (!this.ended && (this.last === null || compareFeedKeys(this.last, key) < 0)) await this.sendPage();
  }

  async sendRest(): Promise<void> {
    while (!this.ended) await this.sendPage();
  }

  private async sendPage(): Promise<void> {
    const page = await this.pages.next();
    if (page.done) {
      this.ended = true;
      this.chain.linksEnd();
      return;
    }
    const flat: FlatPage = [];
    for (const link of page.value)
      flat.push(link.position, link.transactionId, link.streamId, link.seq, link.link);
    this.last = page.value[page.value.length - 1] ?? this.last;
    this.chain.links(flat);
  }
}

async function requireChainTable(db: SqlQueryable): Promise<void> {
  const { rows } = await db.query<{ events: string | null; chain: string | null }>(
    `SELECT to_regclass('public.events')::text AS events, to_regclass('public.event_chain')::text AS chain`,
  );
  const row = rows[0];
  if (!row?.events)
    throw new AuditSetupError('this database has no events table (is it the service database?)');
  if (!row.chain) {
    throw new AuditSetupError(
      'this database has no event_chain table: apply the migrations (npm run db:migrate) and let the projector chain the log',
    );
  }
}
