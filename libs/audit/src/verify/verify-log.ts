import type { SqlQueryable } from '@payouts/database';
import { chainCheckpoint, storedLinkPages } from '../chain/chain-store';
import { AUDIT_BATCH_SIZE, auditFeedPages, feedKeyOf, toAuditEvent } from '../feed/audit-feed';
import { AggregateFolds } from './aggregate-folds';
import { ReportFinding } from './findings';
import { PaidChecks } from './paid-checks';
import { StreamOrder } from './stream-order';
import { ChainSummary, TamperCheck } from './tamper-check';

/** The audit cannot run here (no chain table, say): exit code 2, never a finding. */
export class AuditSetupError extends Error {}

export interface VerifyOptions {
  onFinding: ReportFinding;
  /** Called every `progressEvery` events with the count so far and the last position. */
  onProgress?: (events: number, position: string) => void;
  progressEvery?: number;
  batchSize?: number;
}

export interface VerifyReport {
  events: number;
  findings: number;
  streams: number;
  chain: ChainSummary;
  elapsedMs: number;
}

/**
 * Reads the whole log once, in feed order, and runs every check on each event as it passes: the
 * hash chain, stream versions, the aggregates' folds, paid payouts and orders. Reads only: it
 * never writes, so it can run against production or a copy of it.
 */
export async function verifyLog(db: SqlQueryable, options: VerifyOptions): Promise<VerifyReport> {
  await requireChainTable(db);
  const started = Date.now();
  let findings = 0;
  const report: ReportFinding = (finding) => {
    findings += 1;
    options.onFinding(finding);
  };
  const batchSize = options.batchSize ?? AUDIT_BATCH_SIZE;
  // The checkpoint first: links and events read afterwards can only be further along.
  const checkpoint = await chainCheckpoint(db);
  const tamper = new TamperCheck(storedLinkPages(db, batchSize), checkpoint, report);
  const order = new StreamOrder(report);
  const paid = new PaidChecks(report);
  const folds = new AggregateFolds(report, paid);
  const progressEvery = options.progressEvery ?? 10_000;
  let events = 0;
  for await (const page of auditFeedPages(db, undefined, batchSize)) {
    await tamper.readThrough(feedKeyOf(page[page.length - 1]!));
    for (const row of page) {
      const event = toAuditEvent(row);
      tamper.onEvent(event);
      for (const ready of order.accept(event)) folds.apply(ready);
      events += 1;
      if (options.onProgress && events % progressEvery === 0) options.onProgress(events, event.position);
    }
  }
  const chain = await tamper.finish();
  order.finish();
  paid.finish();
  return { events, findings, streams: order.streams, chain, elapsedMs: Date.now() - started };
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
