import { LedgerEvent } from '@payouts/domain';
import { fundsFlowEvents } from '@payouts/testing';
import { storedLedgerEvents } from '../testing/stored-ledger-events';
import { CSV_HEADER, formatStatementLine } from './statement-format';
import { StatementFold } from './statement-fold';

const at = (day: number, hour: number, minute = 0) =>
  `2026-03-0${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;

const LIMITS = fundsFlowEvents('acct_corner')[0]!; // fee per payout 0.50

/** The merchant's day of docs/balance.md, USD ledger, as docs/audit.md's worked example times it. */
const DAY: LedgerEvent[] = [
  { ...LIMITS, data: { ...LIMITS.data, accountId: 'acct_corner', at: at(1, 9) } } as LedgerEvent,
  {
    type: 'PaymentProceedsRecorded',
    data: {
      orderId: 1000001,
      method: 'card',
      gross: '100.00',
      fee: '3.20',
      net: '96.80',
      paidAt: at(1, 10),
      availableOn: at(3, 10),
      at: at(1, 10),
    },
  },
  { type: 'PaymentProceedsMatured', data: { orderId: 1000001, net: '96.80', at: at(3, 10) } },
  {
    type: 'PayoutFundsReserved',
    data: {
      payoutId: 'po_refund',
      customerKey: 'k',
      amount: '30.00',
      fee: '0.50',
      total: '30.50',
      at: at(3, 11),
    },
  },
  { type: 'PayoutFundsSettled', data: { payoutId: 'po_refund', total: '30.50', at: at(3, 12) } },
  { type: 'RetainedTargetSet', data: { amount: '10.00', at: at(3, 13) } },
  {
    type: 'SettlementStarted',
    data: {
      settlementId: 'stl_day4',
      amount: '56.30',
      retainedTarget: '10.00',
      trigger: 'daily',
      at: at(4, 0),
    },
  },
  { type: 'SettlementPaid', data: { settlementId: 'stl_day4', amount: '56.30', at: at(4, 0, 5) } },
];

function csv(from: string, to: string): string[] {
  const fold = new StatementFold({
    accountId: 'acct_corner',
    environment: 'sandbox',
    currency: 'USD',
    from: new Date(from),
    to: new Date(to),
  });
  const lines = storedLedgerEvents(fold.streamId, DAY).flatMap((event) => fold.push(event));
  return [CSV_HEADER, ...[...lines, ...fold.finish()].map((line) => formatStatementLine(line, 'csv'))];
}

describe("docs/audit.md's worked example", () => {
  it('prints the day to the cent, as the page shows it', () => {
    expect(csv('2026-03-01', '2026-03-05')).toEqual([
      'kind,time,ledger_version,type,transaction_id,currency,order_id,payout_id,settlement_id,description,amount,fee,net,pending,available_for_new_commitments,customer_payout_holds,merchant_settlement_holds,matured,customer_payouts_settled,retained_target,estimated_next_settlement',
      'opening,2026-03-01T00:00:00.000Z,0,,,USD,,,,Opening balance of ledger-acct_corner-sandbox at 2026-03-01T00:00:00.000Z,,,,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00',
      'movement,2026-03-01T10:00:00.000Z,2,payment,txn_cf81389d50f01eb188dabca2,USD,1000001,,,Payment for order 1000001 (card),100.00,0.00,100.00,100.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00',
      'movement,2026-03-01T10:00:00.000Z,2,payment_fee,txn_7fec927defb0ae9e70bd1973,USD,1000001,,,Processing fee for order 1000001,-3.20,0.00,-3.20,96.80,0.00,0.00,0.00,0.00,0.00,0.00,0.00',
      'movement,2026-03-03T10:00:00.000Z,3,payment_matured,,USD,1000001,,,Payment for order 1000001 cleared: 96.80 from pending to available,96.80,0.00,0.00,0.00,96.80,0.00,0.00,96.80,0.00,0.00,96.80',
      'movement,2026-03-03T11:00:00.000Z,4,payout_reserved,txn_13db5af03ab355c3ed1d4f66,USD,,po_refund,,Payout po_refund reserved,-30.00,0.50,-30.50,0.00,66.30,30.50,0.00,96.80,0.00,0.00,66.30',
      'movement,2026-03-03T12:00:00.000Z,5,payout_paid,txn_85ee31cf440aa9fcdd7ece81,USD,,po_refund,,Payout po_refund paid,-30.50,0.00,0.00,0.00,66.30,0.00,0.00,66.30,30.50,0.00,66.30',
      'movement,2026-03-03T13:00:00.000Z,6,retained_target_set,,USD,,,,Retained target set to 10.00,0.00,0.00,0.00,0.00,66.30,0.00,0.00,66.30,30.50,10.00,56.30',
      'movement,2026-03-04T00:00:00.000Z,7,settlement,txn_2f20fb0f2c71dee03489d140,USD,,,stl_day4,Settlement stl_day4 (daily),-56.30,0.00,-56.30,0.00,10.00,0.00,56.30,66.30,30.50,10.00,0.00',
      "movement,2026-03-04T00:05:00.000Z,8,settlement_paid,,USD,,,stl_day4,Settlement stl_day4 paid to the merchant's bank,-56.30,0.00,0.00,0.00,10.00,0.00,0.00,10.00,30.50,10.00,0.00",
      'closing,2026-03-05T00:00:00.000Z,8,,,USD,,,,Closing balance of ledger-acct_corner-sandbox at 2026-03-05T00:00:00.000Z,,,,0.00,10.00,0.00,0.00,10.00,30.50,10.00,0.00',
    ]);
  });

  it('opens at version 3 and closes at version 6 for the window from day 3 10:30 to day 4', () => {
    const lines = csv('2026-03-03T10:30:00Z', '2026-03-04');
    expect(lines.map((line) => line.split(',').slice(0, 4).join(','))).toEqual([
      'kind,time,ledger_version,type',
      'opening,2026-03-03T10:30:00.000Z,3,',
      'movement,2026-03-03T11:00:00.000Z,4,payout_reserved',
      'movement,2026-03-03T12:00:00.000Z,5,payout_paid',
      'movement,2026-03-03T13:00:00.000Z,6,retained_target_set',
      'closing,2026-03-04T00:00:00.000Z,6,',
    ]);
    expect(lines[1]!.split(',').slice(-8)).toEqual([
      '0.00',
      '96.80',
      '0.00',
      '0.00',
      '96.80',
      '0.00',
      '0.00',
      '96.80',
    ]);
    expect(lines[5]!.split(',').slice(-8)).toEqual([
      '0.00',
      '66.30',
      '0.00',
      '0.00',
      '66.30',
      '30.50',
      '10.00',
      '56.30',
    ]);
  });
});
