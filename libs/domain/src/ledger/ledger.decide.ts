import { formatMoney, Money, parseMoney, parseStoredMoney, ZERO_MONEY } from '../money/money';
import { Decider } from '../kernel/decider';
import { DomainError } from '../kernel/domain-error';
import {
  CreditFunds,
  LedgerCommand,
  ReleasePayoutFunds,
  ReservePayoutFunds,
  SetLedgerLimits,
  SettlePayoutFunds,
} from './ledger.commands';
import { decideFundsFlow } from './ledger.funds-flow.decide';
import { LedgerEvent, LedgerLimits } from './ledger.events';
import { initialLedgerState, LedgerState } from './ledger.state';
import { evolveLedger } from './ledger.evolve';

/** Turns a command to one ledger into events, or refuses it with a DomainError. */
export function decideLedger(command: LedgerCommand, state: LedgerState, now: Date): LedgerEvent[] {
  switch (command.type) {
    case 'SetLedgerLimits':
      return setLimits(command.data, now);
    case 'CreditFunds':
      return creditFunds(command.data, now);
    case 'ReservePayoutFunds':
      return reserve(command.data, state, now);
    case 'ReleasePayoutFunds':
      return release(command.data, state, now);
    case 'SettlePayoutFunds':
      return settle(command.data, state, now);
    case 'RecordPaymentProceeds':
    case 'MatureProceeds':
    case 'StartSettlement':
    case 'CompleteSettlement':
    case 'SetRetainedTarget':
      return decideFundsFlow(command, state, now);
    default: {
      const _never: never = command;
      throw new Error(`Unknown ledger command ${JSON.stringify(_never)}`);
    }
  }
}

function setLimits(data: SetLedgerLimits['data'], now: Date): LedgerEvent[] {
  const { limits } = data;
  const minPayout = parseMoney(limits.minPayout, 'min_payout');
  const maxPayout = parseMoney(limits.maxPayout, 'max_payout');
  const normalised: LedgerLimits = {
    feePerPayout: formatMoney(parseMoney(limits.feePerPayout, 'fee_per_payout')),
    minPayout: formatMoney(minPayout),
    maxPayout: formatMoney(maxPayout),
    maxOpenExposure: formatMoney(parseMoney(limits.maxOpenExposure, 'max_open_exposure')),
    maxPendingPerCustomer: limits.maxPendingPerCustomer,
  };
  const maxPending: unknown = limits.maxPendingPerCustomer;
  if (typeof maxPending !== 'number' || !Number.isSafeInteger(maxPending) || maxPending < 1) {
    throw new DomainError(
      'invalid_request',
      'max_pending_per_customer must be a whole number of at least 1',
      'max_pending_per_customer',
    );
  }
  if (minPayout.gt(maxPayout)) {
    throw new DomainError('invalid_request', 'min_payout must not exceed max_payout', 'min_payout');
  }
  const { accountId, environment } = data;
  return [
    { type: 'LedgerLimitsSet', data: { accountId, environment, limits: normalised, at: now.toISOString() } },
  ];
}

function creditFunds(data: CreditFunds['data'], now: Date): LedgerEvent[] {
  const amount = positiveAmount(data.amount, 'amount');
  if (typeof data.reference !== 'string' || data.reference === '') {
    throw new DomainError('invalid_request', 'reference must be a non-empty string', 'reference');
  }
  if (typeof data.reason !== 'string' || data.reason.trim() === '') {
    throw new DomainError('invalid_request', 'reason must be a non-empty string', 'reason');
  }
  const { accountId, environment, reference, reason } = data;
  return [
    {
      type: 'FundsCredited',
      data: { accountId, environment, amount: formatMoney(amount), reference, reason, at: now.toISOString() },
    },
  ];
}

/** The checks run in a fixed order, so a caller always learns the most fundamental problem first. */
function reserve(data: ReservePayoutFunds['data'], state: LedgerState, now: Date): LedgerEvent[] {
  const { limits } = state;
  if (limits === null) {
    throw new DomainError('limits_not_configured', 'Payout limits are not configured for this account');
  }
  const amount = positiveAmount(data.amount, 'amount');
  if (typeof data.customerKey !== 'string' || data.customerKey === '') {
    throw new DomainError('invalid_request', 'customerKey must be a non-empty string', 'customer_key');
  }
  const minPayout = parseStoredMoney(limits.minPayout);
  const maxPayout = parseStoredMoney(limits.maxPayout);
  if (amount.lt(minPayout) || amount.gt(maxPayout)) {
    throw new DomainError(
      'amount_out_of_range',
      `amount must be between ${limits.minPayout} and ${limits.maxPayout}`,
      'amount',
    );
  }
  if (
    state.openReservations.has(data.payoutId) ||
    state.closedReservations.get(data.payoutId) !== undefined
  ) {
    throw new DomainError('payout_already_exists', `Funds were already reserved for payout ${data.payoutId}`);
  }
  if ((state.pendingByCustomer.get(data.customerKey) ?? 0) >= limits.maxPendingPerCustomer) {
    throw new DomainError(
      'customer_pending_limit',
      `This customer already has ${limits.maxPendingPerCustomer} pending payouts`,
    );
  }
  const fee = parseStoredMoney(limits.feePerPayout);
  const total = amount.plus(fee);
  if (state.customerPayoutHolds.plus(total).gt(parseStoredMoney(limits.maxOpenExposure))) {
    throw new DomainError(
      'exposure_limit_exceeded',
      `Open payouts would exceed max_open_exposure ${limits.maxOpenExposure}`,
    );
  }
  if (state.available.lt(total)) {
    throw new DomainError(
      'insufficient_funds',
      `Available ${formatMoney(state.available)} is less than amount plus fee ${formatMoney(total)}`,
    );
  }
  return [
    {
      type: 'PayoutFundsReserved',
      data: {
        payoutId: data.payoutId,
        customerKey: data.customerKey,
        amount: formatMoney(amount),
        fee: formatMoney(fee),
        total: formatMoney(total),
        at: now.toISOString(),
      },
    },
  ];
}

/** Returns the money of a payout that ended unpaid. Releasing twice, or nothing, changes nothing. */
function release(data: ReleasePayoutFunds['data'], state: LedgerState, now: Date): LedgerEvent[] {
  const reservation = state.openReservations.get(data.payoutId);
  if (reservation === undefined) {
    if (state.closedReservations.get(data.payoutId) === 'settled') {
      throw new DomainError(
        'invalid_transition',
        `The funds of payout ${data.payoutId} were already paid out`,
      );
    }
    return [];
  }
  const { payoutId, reason } = data;
  return [
    {
      type: 'PayoutFundsReleased',
      data: { payoutId, total: formatMoney(reservation.total), reason, at: now.toISOString() },
    },
  ];
}

/** Moves the money of a paid payout from holds to settled. */
function settle(data: SettlePayoutFunds['data'], state: LedgerState, now: Date): LedgerEvent[] {
  const reservation = state.openReservations.get(data.payoutId);
  if (reservation === undefined) {
    switch (state.closedReservations.get(data.payoutId)) {
      case 'settled':
        return [];
      case 'released':
        throw new DomainError(
          'invalid_transition',
          `The funds of payout ${data.payoutId} were already returned`,
        );
      case undefined:
        throw new DomainError('reservation_not_found', `No funds are reserved for payout ${data.payoutId}`);
    }
  }
  return [
    {
      type: 'PayoutFundsSettled',
      data: { payoutId: data.payoutId, total: formatMoney(reservation.total), at: now.toISOString() },
    },
  ];
}

export function positiveAmount(input: unknown, param: string): Money {
  const amount = parseMoney(input, param);
  if (!amount.gt(ZERO_MONEY))
    throw new DomainError('invalid_amount', `${param} must be greater than 0`, param);
  return amount;
}

export const ledgerDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  decide: decideLedger,
  evolve: evolveLedger,
  initialState: initialLedgerState,
};
