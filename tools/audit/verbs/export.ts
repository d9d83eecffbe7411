import { exportEvents, FEED_ORIGIN, FeedKey, keyAt, keyBefore } from '@payouts/audit';
import {
  AuditDatabase,
  EXIT,
  ExitCode,
  Output,
  parseOptions,
  parsePosition,
  progressThrottle,
  UsageError,
  Verb,
} from '../cli';

const HELP = `export [--from-position N | --after-position N]
    Writes the log on stdout as NDJSON, one event per line in the public envelope
    payouts.event/v1 (docs/audit.md), in feed order. --from-position N starts with the event
    at global position N; --after-position N with the one after it in feed order (to continue
    an earlier export from the last position it gave).`;

async function exportLog(
  { db, store }: AuditDatabase,
  args: readonly string[],
  output: Output,
): Promise<ExitCode> {
  const options = parseOptions(args, ['from-position', 'after-position']);
  const from = options.get('from-position');
  const afterPosition = options.get('after-position');
  if (from !== undefined && afterPosition !== undefined) {
    throw new UsageError('give --from-position or --after-position, not both');
  }
  let start: FeedKey | null = FEED_ORIGIN;
  if (from !== undefined) start = await keyBefore(store, parsePosition('from-position', from));
  if (afterPosition !== undefined) start = await keyAt(store, parsePosition('after-position', afterPosition));
  if (start === null) throw new UsageError(`there is no event at position ${from ?? afterPosition}`);
  const progress = progressThrottle(output);
  let count = 0;
  for await (const event of exportEvents(store, db, start)) {
    await output.line(JSON.stringify(event));
    count += 1;
    progress(() => `export: ${count} events written, at position ${event.position}`);
  }
  output.progress(`export: ${count} events written`);
  return EXIT.ok;
}

export const EXPORT_VERB: Verb = { name: 'export', help: HELP, opensDatabase: true, run: exportLog };
