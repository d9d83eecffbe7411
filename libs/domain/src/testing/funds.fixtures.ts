import { LedgerCommand } from '../ledger/ledger.commands';
import { LedgerEvent, SettlementTrigger } from '../ledger/ledger.events';
import { AT } from './ledger.fixtures';

/** Commands and events of the funds flow shared by the ledger specs. Test code only. */

export const DAY_2 = '2026-03-03T12:00:00.000Z';

export const recordProceeds = (
  orderId: number,
  gross: string,
  fee: string,
  net: string,
  availableOn = DAY_2,
): LedgerCommand => ({
  type: 'RecordPaymentProceeds',
  data: { orderId, method: 'card', gross, fee, net, paidAt: AT, availableOn },
});
export const proceedsRecorded = (
  orderId: number,
  gross: string,
  fee: string,
  net: string,
  availableOn = DAY_2,
): LedgerEvent => ({
  type: 'PaymentProceedsRecorded',
  data: { orderId, method: 'card', gross, fee, net, paidAt: AT, availableOn, at: AT },
});
export const matured = (orderId: number, net: string, at = AT): LedgerEvent => ({
  type: 'PaymentProceedsMatured',
  data: { orderId, net, at },
});
export const startSettlement = (
  settlementId: string,
  trigger: SettlementTrigger = 'manual',
): LedgerCommand => ({
  type: 'StartSettlement',
  data: { settlementId, trigger },
});
export const settlementStarted = (
  settlementId: string,
  amount: string,
  retainedTarget = '0.00',
  trigger: SettlementTrigger = 'manual',
): LedgerEvent => ({
  type: 'SettlementStarted',
  data: { settlementId, amount, retainedTarget, trigger, at: AT },
});
export const settlementPaid = (settlementId: string, amount: string): LedgerEvent => ({
  type: 'SettlementPaid',
  data: { settlementId, amount, at: AT },
});
export const settlementFailed = (
  settlementId: string,
  amount: string,
  reason = 'account_closed',
): LedgerEvent => ({
  type: 'SettlementFailed',
  data: { settlementId, amount, reason, at: AT },
});
export const retainedTargetSet = (amount: string): LedgerEvent => ({
  type: 'RetainedTargetSet',
  data: { amount, at: AT },
});
