import { createHash } from 'node:crypto';
import Big from 'big.js';
import { LedgerEvent } from '@payouts/domain';
import { moneySum } from './money-figures';

/**
 * The balance transactions of ledger events, without I/O (the design's definitive table): what
 * rows an event adds, and which earlier rows it changes. balance-transactions.sql.ts writes them.
 */
export const TRANSACTION_TYPES = [
  'payment',
  'payment_fee',
  'payout_reserved',
  'payout_released',
  'payout_paid',
  'settlement',
  'settlement_failed',
  'adjustment',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_STATUSES = ['pending', 'available', 'in_transit', 'paid', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** A row's effect on the four running balances it reports. */
export interface RunningDeltas {
  pending: Big;
  available: Big;
  holds: Big;
  settlementHolds: Big;
}

const ZERO = new Big(0);
export const NO_RUNNING: RunningDeltas = {
  pending: ZERO,
  available: ZERO,
  holds: ZERO,
  settlementHolds: ZERO,
};

export const addRunning = (a: RunningDeltas, b: RunningDeltas): RunningDeltas => ({
  pending: moneySum(a.pending, b.pending),
  available: moneySum(a.available, b.available),
  holds: moneySum(a.holds, b.holds),
  settlementHolds: moneySum(a.settlementHolds, b.settlementHolds),
});

/** One balance transaction row before it is written. Money is a signed two-decimal string. */
export interface TransactionDraft {
  id: string;
  ledgerVersion: number;
  /** Its place among its event's rows (0 first). */
  eventRow: number;
  type: TransactionType;
  /**
   * Null only on a payout_released row whose reservation is not at hand (an earlier batch): the
   * statement that writes it then takes both from the reservation's row (amount + fee = total).
   */
  amount: string | null;
  fee: string | null;
  net: string;
  status: TransactionStatus;
  availableOn: string | null;
  orderId: number | null;
  payoutId: string | null;
  settlementId: string | null;
  description: string;
  includedInSettlement: string | null;
  createdAt: string;
  /** What this row alone did to the running balances; an event's rows sum to the event's effect. */
  effect: RunningDeltas;
}

/** Deterministic: a rebuild from the events gives every row the same id. */
export function transactionId(streamId: string, ledgerVersion: number, type: TransactionType): string {
  const digest = createHash('sha256').update(`${streamId}|${ledgerVersion}|${type}`).digest('hex');
  return `txn_${digest.slice(0, 24)}`;
}

const money = (value: Big): string => value.toFixed(2);

/** The rows one ledger event adds (none for maturing, a paid settlement, limits and the target). */
export function transactionsOf(streamId: string, event: LedgerEvent, version: number): TransactionDraft[] {
  const row = (
    type: TransactionType,
    fields: Partial<TransactionDraft> & Pick<TransactionDraft, 'net' | 'status' | 'description' | 'effect'>,
  ): TransactionDraft => ({
    id: transactionId(streamId, version, type),
    ledgerVersion: version,
    eventRow: 0,
    type,
    amount: fields.net,
    fee: '0.00',
    availableOn: null,
    orderId: null,
    payoutId: null,
    settlementId: null,
    includedInSettlement: null,
    createdAt: event.data.at,
    ...fields,
  });
  switch (event.type) {
    case 'PaymentProceedsRecorded': {
      const { orderId, method, availableOn } = event.data;
      const gross = new Big(event.data.gross);
      const fee = new Big(event.data.fee);
      const payment = row('payment', {
        net: money(gross),
        status: 'pending',
        availableOn,
        orderId,
        description: `Payment for order ${orderId} (${method})`,
        effect: { ...NO_RUNNING, pending: gross },
      });
      if (fee.eq(0)) return [payment];
      return [
        payment,
        row('payment_fee', {
          eventRow: 1,
          net: money(fee.neg()),
          status: 'pending',
          availableOn,
          orderId,
          description: `Processing fee for order ${orderId}`,
          effect: { ...NO_RUNNING, pending: fee.neg() },
        }),
      ];
    }
    case 'FundsCredited': {
      const amount = new Big(event.data.amount);
      return [
        row('adjustment', {
          net: money(amount),
          status: 'available',
          description: event.data.reason,
          effect: { ...NO_RUNNING, available: amount },
        }),
      ];
    }
    case 'PayoutFundsReserved': {
      const total = new Big(event.data.total);
      return [
        row('payout_reserved', {
          amount: money(new Big(event.data.amount).neg()),
          fee: money(new Big(event.data.fee)),
          net: money(total.neg()),
          status: 'available',
          payoutId: event.data.payoutId,
          description: `Payout ${event.data.payoutId} reserved`,
          effect: { ...NO_RUNNING, available: total.neg(), holds: total },
        }),
      ];
    }
    case 'PayoutFundsReleased': {
      const total = new Big(event.data.total);
      return [
        row('payout_released', {
          amount: null,
          fee: null,
          net: money(total),
          status: 'available',
          payoutId: event.data.payoutId,
          description: event.data.reason,
          effect: { ...NO_RUNNING, available: total, holds: total.neg() },
        }),
      ];
    }
    case 'PayoutFundsSettled': {
      // The held money left to the customer: pending + available do not move, so net is 0.00.
      const total = new Big(event.data.total);
      return [
        row('payout_paid', {
          amount: money(total.neg()),
          net: '0.00',
          status: 'paid',
          payoutId: event.data.payoutId,
          description: `Payout ${event.data.payoutId} paid`,
          effect: { ...NO_RUNNING, holds: total.neg() },
        }),
      ];
    }
    case 'SettlementStarted': {
      const { settlementId, trigger } = event.data;
      const amount = new Big(event.data.amount);
      return [
        row('settlement', {
          net: money(amount.neg()),
          status: 'in_transit',
          settlementId,
          includedInSettlement: settlementId,
          description: `Settlement ${settlementId} (${trigger})`,
          effect: { ...NO_RUNNING, available: amount.neg(), settlementHolds: amount },
        }),
      ];
    }
    case 'SettlementFailed': {
      const { settlementId, reason } = event.data;
      const amount = new Big(event.data.amount);
      return [
        row('settlement_failed', {
          net: money(amount),
          status: 'available',
          settlementId,
          // The returned money is available again: the next settlement takes it, so each
          // settlement's rows net to minus what it kept back (the retained target).
          includedInSettlement: null,
          description: `Settlement ${settlementId} failed: ${reason}`,
          effect: { ...NO_RUNNING, available: amount, settlementHolds: amount.neg() },
        }),
      ];
    }
    case 'PaymentProceedsMatured':
    case 'SettlementPaid':
    case 'LedgerLimitsSet':
    case 'RetainedTargetSet':
      return [];
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

/**
 * A released payout's amount and fee are its reservation's, sign reversed. Fills them in from the
 * reservations among `drafts` (in ledger order); the others stay null for the statement.
 */
export function fillReleasesFromBatch(drafts: readonly TransactionDraft[]): TransactionDraft[] {
  const reserved = new Map<string, TransactionDraft>();
  return drafts.map((draft) => {
    if (draft.type === 'payout_reserved' && draft.payoutId) reserved.set(draft.payoutId, draft);
    const reservation = draft.payoutId ? reserved.get(draft.payoutId) : undefined;
    if (draft.type !== 'payout_released' || !reservation) return draft;
    return {
      ...draft,
      amount: money(new Big(reservation.amount!).neg()),
      fee: money(new Big(reservation.fee!).neg()),
    };
  });
}

/** How an event changes rows written before it (in the table or earlier in the same batch). */
export type TransactionChange =
  | { kind: 'mature'; orderId: number }
  | { kind: 'cover'; settlementId: string }
  | { kind: 'settle'; settlementId: string; status: 'paid' | 'failed' };

export function transactionChangesOf(event: LedgerEvent): TransactionChange[] {
  switch (event.type) {
    case 'PaymentProceedsMatured':
      return [{ kind: 'mature', orderId: event.data.orderId }];
    case 'SettlementStarted':
      return [{ kind: 'cover', settlementId: event.data.settlementId }];
    case 'SettlementPaid':
      return [{ kind: 'settle', settlementId: event.data.settlementId, status: 'paid' }];
    case 'SettlementFailed':
      return [{ kind: 'settle', settlementId: event.data.settlementId, status: 'failed' }];
    default:
      return [];
  }
}

/** Pure: an earlier draft after the change (the statement does the same to the table's rows). */
export function changedDraft(draft: TransactionDraft, change: TransactionChange): TransactionDraft {
  switch (change.kind) {
    case 'mature':
      return draft.orderId === change.orderId && draft.status === 'pending'
        ? { ...draft, status: 'available' }
        : draft;
    case 'cover':
      // Everything not pending and not yet covered: matured payments and fees, adjustments,
      // payout rows, earlier settlement_failed returns.
      return draft.includedInSettlement === null && draft.status !== 'pending'
        ? { ...draft, includedInSettlement: change.settlementId }
        : draft;
    case 'settle':
      return draft.type === 'settlement' && draft.settlementId === change.settlementId
        ? { ...draft, status: change.status }
        : draft;
  }
}
