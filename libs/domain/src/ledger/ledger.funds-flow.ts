import { parseStoredMoney } from '../money/money';
import type { LedgerEvent } from './ledger.events';
import type { LedgerState } from './ledger.state';

type FundsFlowEvent = Extract<
  LedgerEvent,
  {
    type:
      | 'PaymentProceedsRecorded'
      | 'PaymentProceedsMatured'
      | 'SettlementStarted'
      | 'SettlementPaid'
      | 'SettlementFailed'
      | 'RetainedTargetSet';
  }
>;

/**
 * What proceeds and settlements do to a ledger besides its money figures (docs/design.md#funds-flow):
 * the pending payments and the open and closed settlements. evolveLedger moves the figures by
 * ledgerMovement after this. An event that does not fit the state (a payment recorded twice, a
 * settlement paid that was never started) is a bug or a tampered log, never a user error: it
 * throws, and the event is not applied.
 */
export function fundsFlowBookkeeping(state: LedgerState, event: FundsFlowEvent): LedgerState {
  switch (event.type) {
    case 'PaymentProceedsRecorded': {
      const { orderId, availableOn } = event.data;
      if (state.pendingPayments.has(orderId)) {
        throw new Error(`Cannot apply PaymentProceedsRecorded: order ${orderId} is already recorded`);
      }
      const gross = parseStoredMoney(event.data.gross);
      const fee = parseStoredMoney(event.data.fee);
      const net = parseStoredMoney(event.data.net);
      if (!gross.minus(fee).eq(net)) {
        throw new Error(`Cannot apply PaymentProceedsRecorded: net of order ${orderId} is not gross − fee`);
      }
      return { ...state, pendingPayments: state.pendingPayments.set(orderId, { net, availableOn }) };
    }
    case 'PaymentProceedsMatured': {
      const { orderId } = event.data;
      const payment = state.pendingPayments.get(orderId);
      if (payment === undefined || !payment.net.eq(parseStoredMoney(event.data.net))) {
        throw new Error(
          `Cannot apply PaymentProceedsMatured: order ${orderId} has no pending net of ${event.data.net}`,
        );
      }
      return { ...state, pendingPayments: state.pendingPayments.delete(orderId) };
    }
    case 'SettlementStarted': {
      const { settlementId } = event.data;
      if (state.openSettlements.has(settlementId) || state.closedSettlements.has(settlementId)) {
        throw new Error(`Cannot apply SettlementStarted: ${settlementId} was already started`);
      }
      const amount = parseStoredMoney(event.data.amount);
      return { ...state, openSettlements: state.openSettlements.set(settlementId, amount) };
    }
    case 'SettlementPaid':
    case 'SettlementFailed': {
      const { settlementId } = event.data;
      const amount = state.openSettlements.get(settlementId);
      if (amount === undefined || !amount.eq(parseStoredMoney(event.data.amount))) {
        throw new Error(
          `Cannot apply ${event.type}: no open settlement ${settlementId} of ${event.data.amount}`,
        );
      }
      return {
        ...state,
        openSettlements: state.openSettlements.delete(settlementId),
        closedSettlements: state.closedSettlements.set(
          settlementId,
          event.type === 'SettlementPaid' ? 'paid' : 'failed',
        ),
      };
    }
    case 'RetainedTargetSet':
      return state;
    default: {
      const _never: never = event;
      throw new Error(`Unknown funds-flow event ${JSON.stringify(_never)}`);
    }
  }
}
