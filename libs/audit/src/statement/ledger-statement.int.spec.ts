import { Command } from '@nestjs/cqrs';
import { DAY_MS } from '@payouts/domain';
import {
  CancelPayoutCommand,
  ConfirmPayoutCommand,
  CreatePayoutCommand,
  CreditFundsCommand,
  FailPayoutCommand,
  RecordPayoutPaidCommand,
  ReserveFloatCommand,
  TopUpFloatCommand,
} from '@payouts/payouts';
import {
  CompleteSettlementCommand,
  manualSettlementId,
  MatureProceedsCommand,
  SetRetainedTargetCommand,
  StartSettlementCommand,
} from '@payouts/settlements';
import { TRANSACTION_TYPES } from '@payouts/read-models';
import { testBackends } from '@payouts/testing';
import { FundsTestApp, openFundsTestApp } from '../../../settlements/src/testing/funds-test-app';
import { ledgerStatement } from './ledger-statement';
import { StatementRequest } from './statement-fold';
import { StatementLine } from './statement-line';

type Row = Record<string, string | null>;

/**
 * A merchant's ledger written by the product's own commands (checkout payments, maturing, payouts
 * cancelled, paid and failed, a credit, a retained target, a settlement failed and one paid, a
 * payment after them), projected by the product's own read side; the statement, from the events
 * alone, must agree with the read model at every point it can be compared.
 */
describe.each(testBackends())('the statement of a ledger the product wrote, on $name', (backend) => {
  let app: FundsTestApp;
  let accountId: string;
  let ledger: string;

  /** Every command a second later on the sandbox clock, so each has its own business time. */
  async function run<T>(command: Command<T>): Promise<T> {
    app.advanceSandbox(1_000);
    return app.commands.execute(command);
  }

  async function payout(amount: string, reference: string): Promise<string> {
    const command = new CreatePayoutCommand({
      accountId,
      environment: 'sandbox',
      amount,
      merchantReference: reference,
      delivery: 'link',
      customerEmail: `${reference}@example.com`,
    });
    await run(command);
    return command.payoutId;
  }

  async function sent(amount: string, reference: string): Promise<string> {
    const payoutId = await payout(amount, reference);
    await run(new ConfirmPayoutCommand(payoutId, 'bank_transfer'));
    await run(new ReserveFloatCommand(payoutId));
    return payoutId;
  }

  beforeAll(async () => {
    app = await openFundsTestApp(backend);
    ({ accountId, ledger } = await app.fundedLedger('100.00'));
    await run(new TopUpFloatCommand('sandbox', '10000.00', 'statement-float'));
    await app.paidCardOrder(accountId, '100.00');
    app.advanceSandbox(1_000);
    await app.paidCardOrder(accountId, '40.00');
    await run(new CancelPayoutCommand(accountId, 'sandbox', await payout('20.00', 'cancelled')));
    await run(new RecordPayoutPaidCommand(await sent('15.00', 'paid'), 'rcpt_statement_1'));
    await run(new FailPayoutCommand(await sent('5.00', 'failed'), 'bank_rejected'));
    app.advanceSandbox(2 * DAY_MS);
    await run(new MatureProceedsCommand(ledger));
    await run(new CreditFundsCommand(accountId, 'sandbox', '12.34', 'goodwill-1', 'Goodwill, "as agreed"'));
    await run(new SetRetainedTargetCommand(ledger, '10.00'));
    const failed = manualSettlementId();
    await run(new StartSettlementCommand(ledger, failed, 'manual'));
    await run(
      new CompleteSettlementCommand(ledger, failed, { outcome: 'failed', reason: 'bank_account_closed' }),
    );
    const paid = manualSettlementId();
    await run(new StartSettlementCommand(ledger, paid, 'manual'));
    await run(new CompleteSettlementCommand(ledger, paid, { outcome: 'paid' }));
    app.advanceSandbox(1_000);
    await app.paidCardOrder(accountId, '25.00');
  });
  afterAll(() => app.close());

  const statement = async (from: string, to: string, batchSize = 4): Promise<StatementLine[]> => {
    const request: StatementRequest = {
      accountId,
      environment: 'sandbox',
      currency: 'USD',
      from: new Date(from),
      to: new Date(to),
    };
    const lines: StatementLine[] = [];
    for await (const line of ledgerStatement(app.store, request, { batchSize })) lines.push(line);
    return lines;
  };

  const transactions = async (): Promise<Row[]> =>
    (
      await app.db.query<Row>(
        `SELECT id, ledger_version::text, type, amount::text, fee::text, net::text, order_id::text, payout_id,
                settlement_id, description,
                to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
                running_pending::text AS pending, running_available::text AS available,
                running_customer_payout_holds::text AS holds,
                running_merchant_settlement_holds::text AS settlement_holds
           FROM balance_transactions WHERE account_id = $1 AND environment = 'sandbox' AND currency = 'USD'
          ORDER BY balance_transactions.ledger_version, event_row`,
        [accountId],
      )
    ).rows;

  const asRow = (line: StatementLine): Row => ({
    id: line.transactionId,
    ledger_version: String(line.ledgerVersion),
    type: line.type,
    amount: line.amount,
    fee: line.fee,
    net: line.net,
    order_id: line.orderId === null ? null : String(line.orderId),
    payout_id: line.payoutId,
    settlement_id: line.settlementId,
    description: line.description,
    created_at: line.time,
    ...running(line),
  });
  const running = (line: StatementLine): Row => ({
    pending: line.figures.pending,
    available: line.figures.available_for_new_commitments,
    holds: line.figures.customer_payout_holds,
    settlement_holds: line.figures.merchant_settlement_holds,
  });
  const runningOfRow = (row: Row): Row => ({
    pending: row['pending']!,
    available: row['available']!,
    holds: row['holds']!,
    settlement_holds: row['settlement_holds']!,
  });

  it('closes, at now, on the figures of the payout_balances row', async () => {
    const lines = await statement('2000-01-01', '2999-01-01');
    const { rows } = await app.db.query<Row>(
      `SELECT ledger_version::text, pending::text, available::text AS available_for_new_commitments,
              customer_payout_holds::text, merchant_settlement_holds::text,
              (available + customer_payout_holds + merchant_settlement_holds)::text AS matured,
              customer_payouts_settled::text, retained_target::text,
              greatest(available - retained_target, 0)::numeric(20, 2)::text AS estimated_next_settlement
         FROM payout_balances WHERE account_id = $1 AND environment = 'sandbox' AND currency = 'USD'`,
      [accountId],
    );
    const { ledger_version: version, ...figures } = rows[0]!;
    const closing = lines[lines.length - 1]!;
    const { version: streamVersion } = await app.store.readStream(ledger);
    expect([closing.kind, String(closing.ledgerVersion)]).toEqual(['closing', version]);
    expect(closing.ledgerVersion).toBe(streamVersion);
    expect(closing.figures).toEqual(figures);
    // Something of every kind is still on the books: holds and pending would hide a wrong sign.
    expect(closing.figures).toMatchObject({ retained_target: '10.00', customer_payouts_settled: '15.50' });
    expect(closing.figures.pending).not.toBe('0.00');
  });

  it('lists each balance transaction exactly as the read model wrote it, and a line for each change without one', async () => {
    const lines = await statement('2000-01-01', '2999-01-01', 3);
    const movements = lines.filter((line) => line.kind === 'movement');
    const rows = await transactions();
    expect(movements.filter((line) => line.transactionId !== null).map(asRow)).toEqual(rows);
    // Every type of balance transaction is among them.
    expect(rows.map((row) => row['type'])).toEqual(expect.arrayContaining([...TRANSACTION_TYPES]));
    expect(movements.filter((line) => line.transactionId === null).map((line) => line.type)).toEqual([
      'payment_matured',
      'payment_matured',
      'retained_target_set',
      'settlement_paid',
    ]);
    expect(
      lines.find((line) => line.type === 'payout_released' && line.description === 'failed'),
    ).toMatchObject({
      amount: '5.00',
      fee: '-0.50',
      net: '5.50',
    });
  });

  it('opens and closes a window in the middle on the running figures of the last row before each cut', async () => {
    const rows = await transactions();
    const from = rows.find((row) => row['type'] === 'payout_reserved')!['created_at']!;
    const to = rows.find((row) => row['type'] === 'settlement')!['created_at']!;
    const lines = await statement(from, to);
    const before = (time: string) => rows.filter((row) => row['created_at']! < time).pop()!;
    const [opening, closing] = [lines[0]!, lines[lines.length - 1]!];
    expect(running(opening)).toEqual(runningOfRow(before(from)));
    expect(running(closing)).toEqual(runningOfRow(before(to)));
    expect(closing.ledgerVersion).toBe(
      Number(rows.find((row) => row['type'] === 'settlement')!['ledger_version']) - 1,
    );
    // The movements are the rows in between, with the window's own maturing and target lines.
    const inside = rows.filter((row) => row['created_at']! >= from && row['created_at']! < to);
    expect(lines.filter((line) => line.transactionId !== null).map(asRow)).toEqual(inside);
    expect(lines.filter((line) => line.kind === 'movement' && line.transactionId === null)).toHaveLength(3);
  });

  it('opens and closes on zero before the first event', async () => {
    const lines = await statement('2000-01-01', '2001-01-01');
    expect(
      lines.map((line) => [line.kind, line.ledgerVersion, line.figures.pending, line.figures.matured]),
    ).toEqual([
      ['opening', 0, '0.00', '0.00'],
      ['closing', 0, '0.00', '0.00'],
    ]);
  });
});
