import {
  AuditSetupError,
  CSV_HEADER,
  formatFinding,
  formatStatementLine,
  ledgerStatement,
  parseStatementTime,
  STATEMENT_FORMATS,
  StatementFindingError,
  StatementFormat,
  StatementRequest,
} from '@payouts/audit';
import { ledgerStreamId, PAYOUT_CURRENCY } from '@payouts/domain';
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

const HELP = `statement --account ID --environment production|sandbox [--currency C] --from T --to T [--format csv|json]
    One ledger's money movements, from its events alone: an opening line (the balance at --from),
    every movement with the figures right after it, and a closing line (the balance at --to),
    printed only once opening + the movements = closing has been checked. --from is inclusive,
    --to exclusive, both the time the movement happened, ISO 8601 with a zone (2026-03-01 is
    midnight UTC; 2026-03-01T09:30:00+02:00). --currency defaults to USD, the ledger Get Payout
    Balance answers. --format csv (default, with a header row) or json (one object per line).
    Exit 0: printed; 1: a finding line where the figures cannot be trusted.`;

const OPTIONS = ['account', 'environment', 'currency', 'from', 'to', 'format'];

/** Letters, digits and `_` (`acct_…`): an id that makes exactly one ledger stream id. */
const ACCOUNT_ID = /^[A-Za-z0-9_]{1,191}$/;

function required(options: Map<string, string>, name: string): string {
  const value = options.get(name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

function time(options: Map<string, string>, name: string): Date {
  const raw = required(options, name);
  const parsed = parseStatementTime(raw);
  if (parsed === null) {
    throw new UsageError(
      `--${name} must be an ISO 8601 date (2026-03-01) or time with a zone (2026-03-01T00:00:00Z), not ${raw}`,
    );
  }
  return parsed;
}

/** Every argument checked before anything is printed: a refusal prints nothing on stdout. */
export function parseStatementArgs(args: readonly string[]): {
  request: StatementRequest;
  format: StatementFormat;
} {
  const options = parseOptions(args, OPTIONS);
  const accountId = required(options, 'account');
  if (!ACCOUNT_ID.test(accountId)) {
    throw new UsageError(`--account must be an account id (letters, digits and _), not ${accountId}`);
  }
  const environment = required(options, 'environment');
  if (environment !== 'production' && environment !== 'sandbox') {
    throw new UsageError(`--environment must be production or sandbox, not ${environment}`);
  }
  const currency = options.get('currency') ?? PAYOUT_CURRENCY;
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new UsageError(`--currency must be three capital letters (USD), not ${currency}`);
  }
  const [from, to] = [time(options, 'from'), time(options, 'to')];
  if (from.getTime() > to.getTime()) throw new UsageError('--from is after --to');
  const format = options.get('format') ?? 'csv';
  if (!(STATEMENT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be csv or json, not ${format}`);
  }
  return {
    request: { accountId, environment, currency, from, to },
    format: format as StatementFormat,
  };
}

async function statement(
  { store }: AuditDatabase,
  args: readonly string[],
  output: Output,
): Promise<ExitCode> {
  const { request, format } = parseStatementArgs(args);
  const progress = progressThrottle(output);
  let events = 0;
  const onEvent = (version: number) => {
    events += 1;
    progress(() => `statement: ${events} events read, at ledger version ${version}`);
  };
  try {
    const lines = ledgerStatement(store, request, { onEvent });
    let first = true;
    for await (const line of lines) {
      if (first && format === 'csv') await output.line(CSV_HEADER);
      first = false;
      await output.line(formatStatementLine(line, format));
    }
  } catch (error) {
    if (error instanceof StatementFindingError) {
      await output.line(formatFinding(error.finding));
      return EXIT.finding;
    }
    if (error instanceof AuditSetupError) throw new UsageError(error.message);
    throw error;
  }
  if (events === 0) {
    const streamId = ledgerStreamId(request.accountId, request.environment, request.currency);
    output.progress(`statement: ${streamId} has no events; every figure is 0.00 (is the account id right?)`);
  }
  return EXIT.ok;
}

export const STATEMENT_VERB: Verb = { name: 'statement', help: HELP, opensDatabase: true, run: statement };
