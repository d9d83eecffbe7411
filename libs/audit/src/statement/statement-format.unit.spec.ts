import { parseCsv } from '../testing/csv-records';
import { CSV_HEADER, csvField, formatStatementLine, STATEMENT_COLUMNS } from './statement-format';
import { StatementLine } from './statement-line';
import { parseStatementTime } from './statement-time';

const FIGURES = {
  pending: '0.00',
  available_for_new_commitments: '110.50',
  customer_payout_holds: '0.00',
  merchant_settlement_holds: '0.00',
  matured: '110.50',
  customer_payouts_settled: '0.00',
  retained_target: '0.00',
  estimated_next_settlement: '110.50',
};

const CREDIT: StatementLine = {
  kind: 'movement',
  time: '2026-03-01T12:00:00.000Z',
  ledgerVersion: 2,
  type: 'adjustment',
  transactionId: 'txn_0123456789abcdef01234567',
  currency: 'USD',
  orderId: null,
  payoutId: null,
  settlementId: null,
  description: 'Goodwill, "as agreed"\nby phone',
  amount: '10.50',
  fee: '0.00',
  net: '10.50',
  figures: FIGURES,
};

describe('statement output', () => {
  it('quotes a CSV field with a comma, a quote or a line break, and only those (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(7)).toBe('7');
  });

  it('keeps a spreadsheet from running text as a formula, and money as a number', () => {
    expect(csvField('=HYPERLINK("http://evil.example","refund")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""refund"")"`,
    );
    expect(csvField('+1 555 0100')).toBe("'+1 555 0100");
    expect(csvField('-cmd')).toBe("'-cmd");
    expect(csvField('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvField('\tlead')).toBe("'\tlead");
    expect(csvField('-30.50')).toBe('-30.50');
    expect(csvField('-1')).toBe('-1');
    expect(csvField('a = b')).toBe('a = b');
  });

  it('writes a CSV record that reads back field for field under its header', () => {
    const [header, record, ...rest] = parseCsv(`${CSV_HEADER}\n${formatStatementLine(CREDIT, 'csv')}\n`);
    expect(rest).toEqual([]);
    expect(header).toEqual([...STATEMENT_COLUMNS]);
    expect(Object.fromEntries(header!.map((column, i) => [column, record![i]]))).toEqual({
      kind: 'movement',
      time: '2026-03-01T12:00:00.000Z',
      ledger_version: '2',
      type: 'adjustment',
      transaction_id: 'txn_0123456789abcdef01234567',
      currency: 'USD',
      order_id: '',
      payout_id: '',
      settlement_id: '',
      description: 'Goodwill, "as agreed"\nby phone',
      amount: '10.50',
      fee: '0.00',
      net: '10.50',
      ...FIGURES,
    });
  });

  it('writes one JSON object per line with the same keys, money as strings', () => {
    const reordered = Object.fromEntries(Object.entries(FIGURES).reverse()) as typeof FIGURES;
    const text = formatStatementLine({ ...CREDIT, orderId: 1000001, figures: reordered }, 'json');
    expect(text).not.toMatch(/\n/);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([...STATEMENT_COLUMNS]);
    expect(parsed).toMatchObject({ ledger_version: 2, order_id: 1000001, amount: '10.50', payout_id: null });
  });
});

describe('the times --from and --to take', () => {
  it.each([
    ['2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T00:00:00Z', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T09:30Z', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T09:30:00+02:00', '2026-03-01T07:30:00.000Z'],
    ['2026-03-01T23:30:00-01:00', '2026-03-02T00:30:00.000Z'],
    ['2026-03-01T12:00:00.5Z', '2026-03-01T12:00:00.500Z'],
    ['2026-03-01T12:00:00.123Z', '2026-03-01T12:00:00.123Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
  ])('reads %s as %s', (raw, iso) => {
    expect(parseStatementTime(raw)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-03-01T00:00:00', // no zone: it would depend on the machine's
    '2026-02-30',
    '2026-13-01',
    '2026-03-01T24:00:00Z',
    '2026-03-01T12:60Z',
    '2026-03-01T12:00:00.1234Z',
    '2026-03-01T12:00:00+25:00',
    '1 March 2026',
    '1772323200000',
    '2026-3-1',
    '',
  ])('refuses %j', (raw) => {
    expect(parseStatementTime(raw)).toBeNull();
  });
});
