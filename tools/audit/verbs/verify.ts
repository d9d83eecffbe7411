import { AuditSetupError, formatFinding, verifyLog } from '@payouts/audit';
import {
  AuditDatabase,
  EXIT,
  ExitCode,
  Output,
  parseOptions,
  progressThrottle,
  UsageError,
  Verb,
} from '../cli';

const HELP = `verify
    Reads the whole event log once, in feed order, and checks: the hash chain (an edited,
    deleted or inserted event), conservation and available >= 0 after every event of every
    ledger and float, every aggregate's transitions and stream versions, one payout.updated
    event id per paid payout, one OrderPaid and one PaymentProceedsRecorded per paid order.
    Prints one line per finding on stdout, with what follows from it indented under it (a
    stream's later events are counted, not reported each), then a summary.
    Exit 0: all hold; 1: findings.`;

async function verify(
  { db, store }: AuditDatabase,
  args: readonly string[],
  output: Output,
): Promise<ExitCode> {
  parseOptions(args, []);
  const progress = progressThrottle(output);
  const lines: Promise<void>[] = [];
  let report;
  try {
    // verifyLog hands out at most MAX_KEPT_FINDINGS findings, at the end, and counts the rest.
    report = await verifyLog(db, {
      store,
      onFinding: (finding) => void lines.push(output.line(formatFinding(finding))),
      onProgress: (events, position) =>
        progress(() => `verify: ${events} events checked, at position ${position}`),
      progressEvery: 1_000,
    });
  } catch (error) {
    if (error instanceof AuditSetupError) throw new UsageError(error.message);
    throw error;
  }
  await Promise.all(lines);
  const { events, findings, streams, chain, elapsedMs } = report;
  const perSecond = elapsedMs > 0 ? Math.round((events * 1000) / elapsedMs) : events;
  if (findings > lines.length) {
    await output.line(`info more_findings: ${findings - lines.length} finding(s) not printed`);
  }
  if (chain.notYetChained > 0) {
    await output.line(
      `info not_yet_chained: ${chain.notYetChained} event(s) after the chain keeper's checkpoint (position ${chain.headPosition ?? 'none'}); tamper evidence does not cover them yet`,
    );
  }
  await output.line(
    `summary: ${events} events in ${streams} streams checked in ${(elapsedMs / 1000).toFixed(1)} s (${perSecond} events/s); ` +
      `${findings} finding(s); chain head ${chain.headLink ?? 'none'} at position ${chain.headPosition ?? 'none'} (${chain.links} links)`,
  );
  return findings === 0 ? EXIT.ok : EXIT.finding;
}

export const VERIFY_VERB: Verb = { name: 'verify', help: HELP, opensDatabase: true, run: verify };
