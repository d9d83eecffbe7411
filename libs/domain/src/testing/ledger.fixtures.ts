import { formatMoney, parseMoney } from '../money/money';
import { LedgerCommand } from '../ledger/ledger.commands';
import { LedgerEvent, LedgerLimits } from '../ledger/ledger.events';

/** Commands and events shared by the ledger specs. Test code only. */

export const T0 = new Date('2026-03-01T12:00:00.000Z');
export const AT = T0.toISOString();
export const ACCOUNT = { accountId: 'acc_1', environment: 'sandbox' as const };

export const LIMITS: LedgerLimits = {
  feePerPayout: '1.00',
  minPayout: '5.00',
  maxPayout: '500.00',
  maxOpenExposure: '1000.00',
  maxPendingPerCustomer: 2,
};

export const setLimits = (limits: Partial<LedgerLimits> = {}): LedgerCommand => ({
  type: 'SetLedgerLimits',
  data: { ...ACCOUNT, limits: { ...LIMITS, ...limits } },
});
export const credit = (amount: string, reference = 'wire-1'): LedgerCommand => ({
  type: 'CreditFunds',
  data: { ...ACCOUNT, amount, reference, reason: 'top-up' },
});
export const reserve = (payoutId: string, amount: string, customerKey = 'cust_1'): LedgerCommand => ({
  type: 'ReservePayoutFunds',
  data: { payoutId, customerKey, amount },
});
export const release = (
  payoutId: string,
  reason: 'cancelled' | 'expired' | 'failed' = 'cancelled',
): LedgerCommand => ({
  type: 'ReleasePayoutFunds',
  data: { payoutId, reason },
});
export const settle = (payoutId: string): LedgerCommand => ({
  type: 'SettlePayoutFunds',
  data: { payoutId },
});

export const limitsSet = (limits: Partial<LedgerLimits> = {}): LedgerEvent => ({
  type: 'LedgerLimitsSet',
  data: { ...ACCOUNT, limits: { ...LIMITS, ...limits }, at: AT },
});
export const credited = (amount: string, reference = 'wire-1'): LedgerEvent => ({
  type: 'FundsCredited',
  data: { ...ACCOUNT, amount, reference, reason: 'top-up', at: AT },
});
/** A reservation with the default fee of 1.00. */
export const reserved = (
  payoutId: string,
  amount: string,
  customerKey = 'cust_1',
  fee = '1.00',
): LedgerEvent => ({
  type: 'PayoutFundsReserved',
  data: {
    payoutId,
    customerKey,
    amount,
    fee,
    total: formatMoney(parseMoney(amount).plus(parseMoney(fee))),
    at: AT,
  },
});
export const released = (
  payoutId: string,
  total: string,
  reason: 'cancelled' | 'expired' | 'failed' = 'cancelled',
): LedgerEvent => ({
  type: 'PayoutFundsReleased',
  data: { payoutId, total, reason, at: AT },
});
export const settled = (payoutId: string, total: string): LedgerEvent => ({
  type: 'PayoutFundsSettled',
  data: { payoutId, total, at: AT },
});

/** Limits configured and 2000.00 credited. */
export const funded: LedgerEvent[] = [limitsSet(), credited('2000.00')];
