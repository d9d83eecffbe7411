import type { LedgerEvent } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { createReadModelClient, ReadModelClient } from '@payouts/read-models';
import type { BalanceTransactionView, SettlementView } from '@payouts/read-models';
import { appendLedger, fundsFlowEvents, testBackends, TestDatabase } from '@payouts/testing';
import { FundsQueries } from '../funds-queries';
import { balanceTransactionsCsv, csvText, settlementsCsv } from './funds-csv';

/** RFC 4180, strictly: every record ends with CRLF; a quote, CR or LF only inside a quoted field. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (text[i] === '"') {
          i += 1;
          break;
        } else field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') throw new Error(`bare ${JSON.stringify(text[i])} at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') i += 1;
    else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else throw new Error(`expected a comma or CRLF at ${i}`);
  }
  if (record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

const INJECTED = '=HYPERLINK("https://evil.example","refund"), then "more"\r\non a second line';
const AT_SIGN = '@SUM(A1:A9), "quoted"';
// The two reasons a spreadsheet would run, as it must show them; every other text as it is.
const shown = (text: string) => (text === INJECTED || text === AT_SIGN ? `'${text}` : text);
const cell = (value: string | number | null) => (value === null ? '' : String(value));

/** What a spreadsheet should show for an API row, field by field, written out independently. */
const transactionCells = (r: BalanceTransactionView) => [
  r.id,
  r.type,
  r.currency,
  r.amount,
  r.fee,
  r.net,
  r.status,
  cell(r.available_on),
  cell(r.order_id),
  cell(r.payout_id),
  cell(r.settlement_id),
  cell(r.included_in_settlement),
  shown(r.description),
  r.created_at,
  r.running_balances.pending,
  r.running_balances.available,
  r.running_balances.customer_payout_holds,
  r.running_balances.merchant_settlement_holds,
];

const settlementCells = (s: SettlementView) => [
  s.id,
  s.currency,
  s.amount,
  s.status,
  cell(s.failure_reason),
  s.trigger,
  s.retained_target,
  s.created_at,
  cell(s.paid_at),
  cell(s.failed_at),
];

const credit = (accountId: string, amount: string, reason: string, at: string): LedgerEvent => ({
  type: 'FundsCredited',
  data: { accountId, environment: 'sandbox', amount, reference: `c-${at}`, reason, at },
});

describe.each(testBackends())('Balance page CSV exports on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let readModels: ReadModelClient;
  let queries: FundsQueries;
  const ACCOUNT = `acct_${backend.name}_csv`;

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    readModels = createReadModelClient(database.db);
    queries = new FundsQueries(readModels);
    // Every row type, two settlements (one failed), then credits whose reasons a spreadsheet
    // would run or misread; an EUR ledger and another account the filters must keep apart.
    await appendLedger(store, ACCOUNT, fundsFlowEvents(ACCOUNT, '2026-03-10'));
    await appendLedger(store, ACCOUNT, [
      credit(ACCOUNT, '1.00', INJECTED, '2026-03-11T09:00:00.000Z'),
      credit(ACCOUNT, '2.00', AT_SIGN, '2026-03-11T09:01:00.000Z'),
    ]);
    await appendLedger(store, ACCOUNT, [credit(ACCOUNT, '7.00', 'euro float', '2026-03-11T10:00:00.000Z')], {
      currency: 'EUR',
    });
    await appendLedger(store, `${ACCOUNT}_other`, [
      credit(`${ACCOUNT}_other`, '9.00', 'not yours', '2026-03-11T10:00:00.000Z'),
    ]);
  });
  afterAll(async () => {
    await readModels.$disconnect();
    await store.close?.();
    await database.drop();
  });

  const apiTransactions = async (filters: object) =>
    (await queries.transactions(ACCOUNT, 'sandbox', { ...filters, limit: 200, offset: 0 })).data;

  it.each([
    ['no filter', {}],
    ['type', { type: 'adjustment' }],
    ['currency', { currency: 'USD' }],
    [
      'a date range',
      { since: new Date('2026-03-10T10:05:00.000Z'), until: new Date('2026-03-11T09:01:00.000Z') },
    ],
    ['a settlement', { settlementId: 'stl_2' }],
    [
      'every filter at once',
      { type: 'adjustment', currency: 'USD', since: new Date('2026-03-10T00:00:00.000Z') },
    ],
  ])(
    'writes the balance transactions of %s exactly as the API lists them, over several pages',
    async (_, filters) => {
      const api = await apiTransactions(filters);
      const pageSize = 2;
      // Each case must fill more than one page of the export, or paging would go untested.
      expect(api.length).toBeGreaterThan(pageSize);
      const records = parseCsv(
        await csvText(balanceTransactionsCsv(queries, ACCOUNT, 'sandbox', filters, pageSize)),
      );
      expect(records[0]).toEqual([
        'id',
        'type',
        'currency',
        'amount',
        'fee',
        'net',
        'status',
        'available_on',
        'order_id',
        'payout_id',
        'settlement_id',
        'included_in_settlement',
        'description',
        'created_at',
        'running_pending',
        'running_available',
        'running_customer_payout_holds',
        'running_merchant_settlement_holds',
      ]);
      expect(records.slice(1)).toEqual(api.map(transactionCells));
    },
  );

  it('spans pages for real: the unfiltered export has more rows than three pages hold', async () => {
    const api = await apiTransactions({});
    expect(api.length).toBeGreaterThan(9);
    expect(new Set(api.map((r) => r.currency))).toEqual(new Set(['USD', 'EUR']));
    // Negative money stays a number, and both injected reasons are shown as text.
    const records = parseCsv(await csvText(balanceTransactionsCsv(queries, ACCOUNT, 'sandbox', {}, 3)));
    expect(records.some((r) => r[3] === '-1.75')).toBe(true);
    const descriptions = records.map((r) => r[12]);
    expect(descriptions).toContain(`'${INJECTED}`);
    expect(descriptions).toContain(`'${AT_SIGN}`);
    expect(descriptions).not.toContain('not yours');
  });

  it('writes the header alone for a filter that matches nothing', async () => {
    const text = await csvText(balanceTransactionsCsv(queries, ACCOUNT, 'production', {}, 3));
    expect(parseCsv(text)).toHaveLength(1);
  });

  it('neither repeats nor drops a row when rows are added while the export runs', async () => {
    const before = await apiTransactions({ currency: 'EUR' });
    const chunks = balanceTransactionsCsv(queries, ACCOUNT, 'sandbox', { currency: 'EUR' }, 1);
    let text = (await chunks.next()).value + (await chunks.next()).value; // the header and page one
    // Two newer rows land in front of the row just written: a plain offset would repeat it twice.
    await appendLedger(
      store,
      ACCOUNT,
      [
        credit(ACCOUNT, '1.00', 'late 1', '2026-03-12T00:00:00.000Z'),
        credit(ACCOUNT, '1.00', 'late 2', '2026-03-12T00:00:01.000Z'),
      ],
      { currency: 'EUR' },
    );
    for await (const chunk of chunks) text += chunk;
    const ids = parseCsv(text)
      .slice(1)
      .map((r) => r[0]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(before.map((r) => r.id)));
  });

  it.each([
    ['no filter', {}],
    ['status', { status: 'failed' }],
    ['currency', { currency: 'USD' }],
  ])('writes the settlements of %s exactly as the API lists them, one row a page', async (_, filters) => {
    const api = (await queries.settlements(ACCOUNT, 'sandbox', { ...filters, limit: 200, offset: 0 })).data;
    expect(api.length).toBeGreaterThan(0);
    const records = parseCsv(await csvText(settlementsCsv(queries, ACCOUNT, 'sandbox', filters, 1)));
    expect(records[0]).toEqual([
      'id',
      'currency',
      'amount',
      'status',
      'failure_reason',
      'trigger',
      'retained_target',
      'created_at',
      'paid_at',
      'failed_at',
    ]);
    expect(records.slice(1)).toEqual(api.map(settlementCells));
  });

  it('refuses a page size below one', async () => {
    await expect(csvText(settlementsCsv(queries, ACCOUNT, 'sandbox', {}, 0))).rejects.toThrow(RangeError);
  });
});
