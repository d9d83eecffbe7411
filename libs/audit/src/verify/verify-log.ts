import { SqlClient, SqlQueryable, sqlStateOf } from '@payouts/database';
import { EventStore, PostgresEventStore, RecordedEvent } from '@payouts/event-store';
import { chainCheckpoint, storedLinkPages } from '../chain/chain-store';
import { AUDIT_BATCH_SIZE, auditFeedPages, FEED_ORIGIN, toAuditEvent } from '../feed/audit-feed';
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
  /** Where the events and the chain's checkpoint are read: by default the event store over `db`. */
  store?: Pick<EventStore, 'readFeed' | 'loadCheckpoint'>;
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
export async function verifyLog(db: SqlClient, options: VerifyOptions): Promise<VerifyReport> {
  await requireChainTable(db);
  const store = options.store ?? new PostgresEventStore(db);
  const started = Date.now();
  const groups = new FindingGroups();
  const batchSize = options.batchSize ?? AUDIT_BATCH_SIZE;
  const progressEvery = options.progressEvery ?? 10_000;
  let at = 0;
  // The checkpoint first: links and events read afterwards can only be further along.
  const checkpoint = await chainCheckpoint(store);
  const chain = new TamperCheck(storedLinkPages(db, batchSize), checkpoint, (finding) =>
    groups.add(finding, at),
  );
  const folds = new FoldPass((finding, index) => groups.add(finding, index));
  for await (const events of auditFeedPages(store, FEED_ORIGIN, batchSize)) {
    await chain.readThrough(events[events.length - 1]!.checkpoint);
    // Each event is let go once checked, so the garbage collector does not copy the page's
    // checked events over and over while the rest are checked.
    const page: (RecordedEvent | undefined)[] = events;
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

/** The chain's table is the audit's own: a database without it was never migrated, or is not the service's. */
async function requireChainTable(db: SqlQueryable): Promise<void> {
  const { rows } = await db.query<{ chain: string | null }>(
    `SELECT to_regclass('public.event_chain')::text AS chain`,
  );
  if (!rows[0]?.chain) {
    throw new AuditSetupError(
      'this database has no event_chain table (is it the service database? then apply the migrations, npm run db:migrate, and let the projector chain the log)',
    );
  }
}

/** SQLSTATE undefined_table: the event store's reads name tables that are not there. */
const UNDEFINED_TABLE = '42P01';

/**
 * The setup problem a failed read of the log means, if it means one: a database without the
 * event store's tables (not migrated, or not the service's) is not a finding but exit 2.
 */
export function missingLogError(error: unknown): AuditSetupError | undefined {
  return sqlStateOf(error) === UNDEFINED_TABLE
    ? new AuditSetupError('this database has no events table (is it the service database?)', { cause: error })
    : undefined;
}
