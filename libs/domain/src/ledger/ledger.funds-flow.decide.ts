import { formatMoney, parseMoney, parseStoredMoney, ZERO_MONEY } from '../money/money';
import { DomainError } from '../kernel/domain-error';
import { parseIso } from '../kernel/time';
import {
  CompleteSettlement,
  MatureProceeds,
  RecordPaymentProceeds,
  SetRetainedTarget,
  StartSettlement,
} from './ledger.commands';
import { LedgerEvent } from './ledger.events';
import { LedgerState } from './ledger.state';

/** A settlement smaller than this is not worth a bank transfer: the money waits for the next run. */
export const MIN_SETTLEMENT = '1.00';

/** Most payments one MatureProceeds clears: the append stays small, the worker comes back for more. */
export const MAX_MATURED_PER_COMMAND = 200;

type FundsFlowCommand =
  RecordPaymentProceeds | MatureProceeds | StartSettlement | CompleteSettlement | SetRetainedTarget;

/** Proceeds, maturing and settlements on one ledger (docs/design.md#funds-flow). */
export function decideFundsFlow(command: FundsFlowCommand, state: LedgerState, now: Date): LedgerEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'RecordPaymentProceeds': {
      const { orderId, method, gross, fee, net, paidAt, availableOn } = command.data;
      if (!parseStoredMoney(gross).minus(parseStoredMoney(fee)).eq(parseStoredMoney(net))) {
        throw new Error(`the net of order ${orderId} is not its gross minus its fee`);
      }
      if (state.pendingPayments.has(orderId)) return [];
      return [
        {
          type: 'PaymentProceedsRecorded',
          data: { orderId, method, gross, fee, net, paidAt, availableOn, at },
        },
      ];
    }
    case 'MatureProceeds':
      return dueNow(state, now, command.data.max).map(([orderId, payment]) => ({
        type: 'PaymentProceedsMatured',
        data: { orderId, net: formatMoney(payment.net), at },
      }));
    case 'StartSettlement': {
      const { settlementId, trigger } = command.data;
      if (state.openSettlements.has(settlementId) || state.closedSettlements.has(settlementId)) return [];
      // A ledger funded only by operator credits is a prefunded payout balance: the nightly run
      // never sweeps it back to the bank; the operator's run-now still settles it on request.
      if (trigger === 'daily' && state.grossProceeds.eq(ZERO_MONEY)) return [];
      const amount = settlementAmount(state);
      if (amount.lt(parseStoredMoney(MIN_SETTLEMENT))) return [];
      return [
        {
          type: 'SettlementStarted',
          data: {
            settlementId,
            amount: formatMoney(amount),
            retainedTarget: formatMoney(state.retainedTarget),
            trigger,
            at,
          },
        },
      ];
    }
    case 'CompleteSettlement':
      return completeSettlement(command.data, state, at);
    case 'SetRetainedTarget': {
      const amount = parseMoney(command.data.amount, 'amount');
      return [{ type: 'RetainedTargetSet', data: { amount: formatMoney(amount), at } }];
    }
    default: {
      const _never: never = command;
      throw new Error(`Unknown funds-flow command ${JSON.stringify(_never)}`);
    }
  }
}

/**
 * What a settlement run would take now: available − retained target, never below 0. It is
 * `estimated_next_settlement`; it never touches money held for payouts, which is not available.
 */
export function settlementAmount(state: LedgerState) {
  const amount = state.available.minus(state.retainedTarget);
  return amount.gt(ZERO_MONEY) ? amount : ZERO_MONEY;
}

/** Pending payments due by `now`, soonest first (then by order id), at most `max`. */
function dueNow(state: LedgerState, now: Date, max: number) {
  return [...state.pendingPayments]
    .filter(([, payment]) => parseIso(payment.availableOn).getTime() <= now.getTime())
    .sort(([a, pa], [b, pb]) => pa.availableOn.localeCompare(pb.availableOn) || a - b)
    .slice(0, Math.max(0, max));
}

function completeSettlement(data: CompleteSettlement['data'], state: LedgerState, at: string): LedgerEvent[] {
  const { settlementId } = data;
  const amount = state.openSettlements.get(settlementId);
  if (amount === undefined) {
    const closed = state.closedSettlements.get(settlementId);
    if (closed === data.outcome) return [];
    if (closed !== undefined) {
      throw new DomainError('invalid_transition', `settlement ${settlementId} is already ${closed}`);
    }
    throw new DomainError('not_found', `no settlement ${settlementId} on this ledger`);
  }
  return data.outcome === 'paid'
    ? [{ type: 'SettlementPaid', data: { settlementId, amount: formatMoney(amount), at } }]
    : [
        {
          type: 'SettlementFailed',
          data: { settlementId, amount: formatMoney(amount), reason: data.reason, at },
        },
      ];
}
