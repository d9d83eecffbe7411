import { migrate, SqlClient } from '@payouts/database';
import { LedgerEvent, ledgerStreamId } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import {
  appendLedger,
  cliDatabase,
  CliDatabase,
  fundsFlowEvents,
  testBackends,
  usingCliDatabase,
} from '@payouts/testing';
import { parseCsv } from '../../../libs/audit/src/testing/csv-records';
import { runAudit } from '../../../tools/audit/main';

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

/** `npm run audit -- statement …` in this process, on the database the environment names. */
async function statement(args: string[], env: Record<string, string>): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const output = {
    line: async (text: string) => void stdout.push(text),
    progress: (text: string) => void stderr.push(text),
  };
  const code = await runAudit(['statement', ...args], output, env);
  return { code, stdout, stderr };
}

const REASON = 'Goodwill, "as agreed"';
const WINDOW = ['--from', '2026-03-10', '--to', '2026-03-11'];
const FLOW = ['--account', 'acc_flow', '--environment', 'sandbox', ...WINDOW];

/** The funds flow's every event type on acc_flow's USD ledger, a credit with a quoted reason, and one EUR payment. */
async function history(db: SqlClient): Promise<void> {
  await migrate(db);
  const store = new PostgresEventStore(db);
  const credit: LedgerEvent = {
    type: 'FundsCredited',
    data: {
      accountId: 'acc_flow',
      environment: 'sandbox',
      amount: '0.25',
      reference: 'c2',
      reason: REASON,
      at: '2026-03-10T10:30:00.000Z',
    },
  };
  await appendLedger(store, 'acc_flow', [...fundsFlowEvents('acc_flow'), credit]);
  const [, , payment] = fundsFlowEvents('acc_flow');
  await appendLedger(store, 'acc_flow', [payment!], { currency: 'EUR' });
  // Past every decider, as a bug or a forged write would leave it: a release of a payout never reserved.
  await appendLedger(store, 'acc_forged', [
    fundsFlowEvents('acc_forged')[1]!,
    {
      type: 'PayoutFundsReleased',
      data: { payoutId: 'po_never', total: '1.00', reason: 'cancelled', at: '2026-03-10T11:00:00.000Z' },
    },
  ]);
  await store.close();
}

describe.each(testBackends().map((backend) => backend.name))(
  'npm run audit -- statement on %s',
  (backend) => {
    let database: CliDatabase;

    beforeAll(async () => {
      database = await cliDatabase(backend);
      await usingCliDatabase(database, history);
    });
    afterAll(() => database.drop());

    it('prints a CSV with a header that reads back, the quoted reason intact, and closes on the hand-worked balance', async () => {
      const run = await statement(FLOW, database.env);
      expect(run).toMatchObject({ code: 0, stderr: [] });
      const [header, ...records] = parseCsv(run.stdout.map((line) => `${line}\n`).join(''));
      const lines = records.map((record) =>
        Object.fromEntries(header!.map((column, i) => [column, record[i]])),
      );
      expect(lines.map((line) => line['kind'])).toEqual([
        'opening',
        ...Array(16).fill('movement'),
        'closing',
      ]);
      expect(lines[16]).toMatchObject({
        type: 'adjustment',
        description: REASON,
        amount: '0.25',
        net: '0.25',
      });
      expect(lines[17]).toMatchObject({
        ledger_version: '16',
        time: '2026-03-11T00:00:00.000Z',
        pending: '0.00',
        available_for_new_commitments: '10.25',
        matured: '10.25',
        customer_payouts_settled: '5.50',
        retained_target: '10.00',
        estimated_next_settlement: '0.25',
      });
    });

    it('prints the same lines as NDJSON, one object each', async () => {
      const csv = await statement(FLOW, database.env);
      const json = await statement([...FLOW, '--format=json'], database.env);
      expect(json.code).toBe(0);
      const objects = json.stdout.map((line) => JSON.parse(line) as Record<string, string | number | null>);
      const [header, ...records] = parseCsv(csv.stdout.join('\n'));
      expect(
        objects.map((o) => header!.map((column) => (o[column] === null ? '' : String(o[column])))),
      ).toEqual(records);
    });

    it('takes the ledger of --currency, and USD (the payout ledger) without it', async () => {
      const eur = await statement([...FLOW, '--currency', 'EUR', '--format', 'json'], database.env);
      const objects = eur.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(objects.map((o) => [o['kind'], o['type'], o['currency'], o['pending']])).toEqual([
        ['opening', null, 'EUR', '0.00'],
        ['movement', 'payment', 'EUR', '50.00'],
        ['movement', 'payment_fee', 'EUR', '48.25'],
        ['closing', null, 'EUR', '48.25'],
      ]);
      expect(objects[0]!['description']).toContain(ledgerStreamId('acc_flow', 'sandbox', 'EUR'));
      const usd = await statement([...FLOW, '--currency', 'USD', '--format', 'json'], database.env);
      const byDefault = await statement([...FLOW, '--format', 'json'], database.env);
      expect(usd.stdout).toEqual(byDefault.stdout);
    });

    it('answers a ledger with no events with zero figures and exit 0, saying so on stderr', async () => {
      const run = await statement(
        ['--account', 'acct_nobody', '--environment', 'production', ...WINDOW],
        database.env,
      );
      expect(run.code).toBe(0);
      const [, opening, closing, ...rest] = parseCsv(run.stdout.join('\n'));
      expect(rest).toEqual([]);
      expect([opening![0], closing![0]]).toEqual(['opening', 'closing']);
      expect(new Set([...opening!.slice(13), ...closing!.slice(13)])).toEqual(new Set(['0.00']));
      expect(run.stderr).toEqual([expect.stringMatching(/ledger-acct_nobody-production has no events/)]);
    });

    it('ends with a finding line and exit 1 at an event the ledger fold refuses', async () => {
      const run = await statement(
        ['--account', 'acc_forged', '--environment', 'sandbox', ...WINDOW],
        database.env,
      );
      expect(run.code).toBe(1);
      expect(run.stdout.map((line) => line.split(',')[0])).toEqual([
        'kind',
        'opening',
        'movement',
        expect.any(String),
      ]);
      expect(run.stdout[3]).toMatch(
        /^finding illegal_transition position=\d+ stream=ledger-acc_forged-sandbox: .*no open reservation for po_never$/,
      );
    });

    it.each([
      [['--environment', 'sandbox', ...WINDOW], /--account is required/],
      [['--account', 'acc_flow', ...WINDOW], /--environment is required/],
      [['--account', 'acc_flow', '--environment', 'sandbox', '--to', '2026-03-11'], /--from is required/],
      [['--account', 'acc_flow', '--environment', 'sandbox', '--from', '2026-03-10'], /--to is required/],
      [
        ['--account', 'acc_flow', '--environment', 'staging', ...WINDOW],
        /--environment must be production or sandbox/,
      ],
      [
        [...FLOW.slice(0, 4), '--from', '2026-03-10T00:00:00', '--to', '2026-03-11'],
        /--from must be an ISO 8601/,
      ],
      [[...FLOW.slice(0, 4), '--from', '2026-03-10', '--to', 'tomorrow'], /--to must be an ISO 8601/],
      [[...FLOW.slice(0, 4), '--from', '2026-03-11', '--to', '2026-03-10T23:59:59Z'], /--from is after --to/],
      [[...FLOW, '--format', 'xml'], /--format must be csv or json/],
      [[...FLOW, '--currency', 'usd'], /--currency must be three capital letters/],
      [[...FLOW, '--currency', 'EURO'], /--currency must be three capital letters/],
      [['--account', 'acc-flow', '--environment', 'sandbox', ...WINDOW], /--account must be an account id/],
      [['--account', 'acc flow', '--environment', 'sandbox', ...WINDOW], /--account must be an account id/],
      [[...FLOW, '--since', '2026-03-10'], /unknown argument --since/],
      [[...FLOW, '--account', 'acc_other'], /--account given twice/],
    ])('refuses %j with exit 2 and a message on stderr, printing nothing', async (args, message) => {
      const run = await statement(args, database.env);
      expect(run).toEqual({ code: 2, stdout: [], stderr: [expect.stringMatching(message)] });
    });

    it('answers its help with exit 0, and a database without the event log with exit 2', async () => {
      const help = await statement(['--help'], database.env);
      expect(help.code).toBe(0);
      expect(help.stdout.join('\n')).toMatch(/^statement --account ID --environment production\|sandbox/);
      const empty = await cliDatabase(backend);
      try {
        await usingCliDatabase(empty, async () => undefined); // created, never migrated
        const run = await statement(FLOW, empty.env);
        expect(run).toEqual({ code: 2, stdout: [], stderr: [expect.stringMatching(/no events table/)] });
      } finally {
        await empty.drop();
      }
    });
  },
);
