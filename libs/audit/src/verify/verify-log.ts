import type { SqlQueryable } from '@payouts/database';
import { chainCheckpoint, storedLinkPages } from '../chain/chain-store';
import {
  AUDIT_BATCH_SIZE,
  auditFeedPages,
  AuditEventRow,
  FEED_ORIGIN,
  feedKeyOf,
  toAuditEvent,
} from '../feed/audit-feed';
import { FindingGroups } from './finding-groups';
import { ReportFinding } from './findings';
import { FoldPass } from './fold-pass';
import { ChainSummary, TamperCheck } from './tamper-check';

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

/**
 * Reads the whole log once, in feed order, a page at a time (the next page is read while this one
 * is checked), and runs every check on each event as it passes: its link in the hash chain
 * (TamperCheck, against the stored links read alongside), then its stream's version order, the
 * domain's upcast and evolve for its aggregate, and the paid checks (FoldPass). Reads only: it
 * never writes, so it can run against production or a copy of it.
 *
 * Findings come out in the order they are made: by event, the chain's before the folds'; at the
 * end, links left after the last event, version gaps in the order their streams began to wait,
 * then paid orders and proceeds that never met. FindingGroups keeps them until the end, when each
 * stopped stream's count of unchecked events is known, and puts it under the stream's cause.
 */
export async function verifyLog(db: SqlQueryable, options: VerifyOptions): Promise<VerifyReport> {
  await requireChainTable(db);
  const started = Date.now();
  const groups = new FindingGroups();
  const batchSize = options.batchSize ?? AUDIT_BATCH_SIZE;
  const progressEvery = options.progressEvery ?? 10_000;
  let at = 0;
  // The checkpoint first: links and events read afterwards can only be further along.
  const checkpoint = await chainCheckpoint(db);
  const chain = new TamperCheck(storedLinkPages(db, batchSize), checkpoint, (finding) =>
    groups.add(finding, at),
  );
  const folds = new FoldPass((finding, index) => groups.add(finding, index));
  for await (const rows of auditFeedPages(db, FEED_ORIGIN, batchSize)) {
    await chain.readThrough(feedKeyOf(rows[rows.length - 1]!));
    // Each row is let go once checked, so the garbage collector does not copy the page's checked
    // rows over and over while the rest are checked.
    const page: (AuditEventRow | undefined)[] = rows;
    for (let i = 0; i < page.length; i += 1) {
      const event = toAuditEvent(page[i]!);
      page[i] = undefined;
      chain.onEvent(event);
      folds.accept(event, at);
      at += 1;
      if (options.onProgress && at % progressEvery === 0) options.onProgress(at, event.position);
    }
  }
  // Links left after the last event: past every event, so no gap can follow from them.
  const summary = await chain.finish();
  for (const consequence of folds.finish()) groups.addConsequence(consequence);
  for (const finding of groups.kept()) options.onFinding(finding);
  return {
    events: at,
    findings: groups.count,
    streams: folds.streams,
    chain: summary,
    elapsedMs: Date.now() - started,
  };
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
