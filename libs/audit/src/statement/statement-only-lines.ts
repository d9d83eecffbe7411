import Big from 'big.js';
import type { LedgerEvent } from '@payouts/domain';
import type { StatementLine } from './statement-line';

type OwnFields = Pick<StatementLine, 'type' | 'orderId' | 'settlementId' | 'description' | 'amount'>;

/**
 * The line of a ledger event that moves a figure without a balance transaction (the read side
 * writes no row for it: balance-transactions.ts), or null for an event with rows, or one that
 * moves no figure (payout limits). Its fee and net are 0.00: none of them changes pending +
 * available, which is what a net counts.
 */
export function statementOnlyLine(event: LedgerEvent): OwnFields | null {
  switch (event.type) {
    case 'PaymentProceedsMatured': {
      const { orderId, net } = event.data;
      return {
        type: 'payment_matured',
        orderId,
        settlementId: null,
        description: `Payment for order ${orderId} cleared: ${net} from pending to available`,
        amount: new Big(net).toFixed(2),
      };
    }
    case 'SettlementPaid': {
      const { settlementId, amount } = event.data;
      return {
        type: 'settlement_paid',
        orderId: null,
        settlementId,
        description: `Settlement ${settlementId} paid to the merchant's bank`,
        amount: new Big(amount).neg().toFixed(2),
      };
    }
    case 'RetainedTargetSet':
      return {
        type: 'retained_target_set',
        orderId: null,
        settlementId: null,
        description: `Retained target set to ${new Big(event.data.amount).toFixed(2)}`,
        amount: '0.00',
      };
    case 'LedgerLimitsSet':
    case 'FundsCredited':
    case 'PayoutFundsReserved':
    case 'PayoutFundsReleased':
    case 'PayoutFundsSettled':
    case 'PaymentProceedsRecorded':
    case 'SettlementStarted':
    case 'SettlementFailed':
      return null;
    default: {
      const _never: never = event;
      return _never;
    }
  }
}
