import { Map as PersistentMap } from 'immutable';
import {
  ClosedReservations,
  LedgerEvent,
  LedgerLimits,
  LedgerState,
  PendingPayment,
  ReservationOutcome,
} from '@payouts/domain';
import { cents, money } from './tally-cents';

/** The ledger's sums (LedgerState's Money fields), in exact integer cents. */
class Sums {
  fundsIn = 0n;
  available = 0n;
  customerPayoutHolds = 0n;
  customerPayoutsSettled = 0n;
  merchantSettlementHolds = 0n;
  grossProceeds = 0n;
  processingFees = 0n;
  pending = 0n;
  maturedProceeds = 0n;
  operatorCredits = 0n;
  settlementsPaid = 0n;
  retainedTarget = 0n;
}

/**
 * verify's fast fold of one ledger, for the events it can prove the domain accepts. The domain's
 * evolveLedger stays the definition; this is the same arithmetic in BigInt cents on mutable maps
 * (no persistent maps, no big.js, no copy of the state per event), which is most of verify's CPU
 * at 1M events otherwise (docs/performance.md).
 *
 * tryApply applies an event only when the domain would accept it, with the same effect, and
 * answers false otherwise, changing nothing: for an event the domain refuses (its message is the
 * finding, so the domain must say it) and for what this fold does not model (an amount with more
 * than two decimals or a sign, ids of unusual types). The caller then hands the ledger to the
 * domain for good (toDomainState). A property test checks the two agree on generated histories.
 */
export class LedgerTally {
  private limits: LedgerLimits | null = null;
  private readonly sums = new Sums();
  private readonly pendingPayments = new Map<number, { net: bigint; availableOn: string }>();
  private readonly openSettlements = new Map<string, bigint>();
  private readonly closedSettlements = new Map<string, 'paid' | 'failed'>();
  private readonly openReservations = new Map<string, { customerKey: string; total: bigint }>();
  /** In the order they closed, as ClosedReservations keeps them. */
  private readonly closedReservations = new Map<string, ReservationOutcome>();
  private readonly pendingByCustomer = new Map<string, number>();

  /** Applies the event if the domain certainly accepts it; false (and no change) otherwise. */
  tryApply(event: LedgerEvent): boolean {
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null) return false;
    // The tally starts empty and takes only events after which assertLedgerInvariants holds, so
    // it holds before each event. Every amount taken is unsigned, and each event moves the same
    // amount on both sides of every identity it touches (conservation cannot break): only a sum
    // the event lowers can fail, by going below zero. available is checked where it is lowered,
    // before anything moves, so a refused event changes nothing. The other sums an event lowers
    // hold exactly the open items it closes (pending: the pending payments' nets; the holds: the
    // open settlements and reservations), so closing one cannot take them below zero.
    const s = this.sums;
    switch (event.type) {
      case 'LedgerLimitsSet':
        this.limits = event.data.limits;
        return true;
      case 'FundsCredited': {
        const amount = cents(event.data.amount);
        if (amount === null) return false;
        s.fundsIn += amount;
        s.operatorCredits += amount;
        s.available += amount;
        return true;
      }
      case 'PaymentProceedsRecorded': {
        const { orderId, availableOn } = event.data;
        const gross = cents(event.data.gross);
        const fee = cents(event.data.fee);
        const net = cents(event.data.net);
        if (typeof orderId !== 'number' || this.pendingPayments.has(orderId)) return false;
        if (gross === null || fee === null || net === null || gross - fee !== net) return false;
        s.grossProceeds += gross;
        s.processingFees += fee;
        s.pending += net;
        this.pendingPayments.set(orderId, { net, availableOn });
        return true;
      }
      case 'PaymentProceedsMatured': {
        const { orderId } = event.data;
        const payment = typeof orderId === 'number' ? this.pendingPayments.get(orderId) : undefined;
        if (payment === undefined || cents(event.data.net) !== payment.net) return false;
        const { net } = payment;
        s.pending -= net;
        s.maturedProceeds += net;
        s.fundsIn += net;
        s.available += net;
        this.pendingPayments.delete(orderId);
        return true;
      }
      case 'SettlementStarted': {
        const { settlementId } = event.data;
        const amount = cents(event.data.amount);
        if (typeof settlementId !== 'string' || amount === null) return false;
        if (this.openSettlements.has(settlementId) || this.closedSettlements.has(settlementId)) return false;
        if (s.available < amount) return false;
        s.available -= amount;
        s.merchantSettlementHolds += amount;
        this.openSettlements.set(settlementId, amount);
        return true;
      }
      case 'SettlementPaid':
      case 'SettlementFailed': {
        const { settlementId } = event.data;
        const amount = typeof settlementId === 'string' ? this.openSettlements.get(settlementId) : undefined;
        if (amount === undefined || cents(event.data.amount) !== amount) return false;
        const paid = event.type === 'SettlementPaid';
        s.merchantSettlementHolds -= amount;
        if (paid) s.settlementsPaid += amount;
        else s.available += amount;
        this.openSettlements.delete(settlementId);
        this.closedSettlements.set(settlementId, paid ? 'paid' : 'failed');
        return true;
      }
      case 'RetainedTargetSet': {
        const amount = cents(event.data.amount);
        if (amount === null) return false;
        s.retainedTarget = amount;
        return true;
      }
      case 'PayoutFundsReserved': {
        const { payoutId, customerKey } = event.data;
        const total = cents(event.data.total);
        if (typeof payoutId !== 'string' || typeof customerKey !== 'string' || total === null) return false;
        if (this.openReservations.has(payoutId) || this.closedReservations.has(payoutId)) return false;
        if (s.available < total) return false;
        s.available -= total;
        s.customerPayoutHolds += total;
        this.openReservations.set(payoutId, { customerKey, total });
        this.pendingByCustomer.set(customerKey, (this.pendingByCustomer.get(customerKey) ?? 0) + 1);
        return true;
      }
      case 'PayoutFundsReleased':
      case 'PayoutFundsSettled': {
        const { payoutId } = event.data;
        const reservation = typeof payoutId === 'string' ? this.openReservations.get(payoutId) : undefined;
        if (reservation === undefined || cents(event.data.total) !== reservation.total) return false;
        const { customerKey, total } = reservation;
        const count = (this.pendingByCustomer.get(customerKey) ?? 0) - 1;
        if (count < 0) return false;
        const released = event.type === 'PayoutFundsReleased';
        s.customerPayoutHolds -= total;
        if (released) s.available += total;
        else s.customerPayoutsSettled += total;
        this.openReservations.delete(payoutId);
        this.closedReservations.set(payoutId, released ? 'released' : 'settled');
        if (count === 0) this.pendingByCustomer.delete(customerKey);
        else this.pendingByCustomer.set(customerKey, count);
        return true;
      }
      default:
        return false;
    }
  }

  /** The same ledger as the domain's state, to go on folding it through evolveLedger. */
  toDomainState(): LedgerState {
    const s = this.sums;
    return {
      limits: this.limits,
      fundsIn: money(s.fundsIn),
      available: money(s.available),
      customerPayoutHolds: money(s.customerPayoutHolds),
      customerPayoutsSettled: money(s.customerPayoutsSettled),
      merchantSettlementHolds: money(s.merchantSettlementHolds),
      grossProceeds: money(s.grossProceeds),
      processingFees: money(s.processingFees),
      pending: money(s.pending),
      maturedProceeds: money(s.maturedProceeds),
      operatorCredits: money(s.operatorCredits),
      settlementsPaid: money(s.settlementsPaid),
      retainedTarget: money(s.retainedTarget),
      pendingPayments: PersistentMap<number, PendingPayment>(
        [...this.pendingPayments].map(([orderId, { net, availableOn }]) => [
          orderId,
          { net: money(net), availableOn },
        ]),
      ),
      openSettlements: PersistentMap(
        [...this.openSettlements].map(([id, amount]) => [id, money(amount)] as const),
      ),
      closedSettlements: PersistentMap(this.closedSettlements),
      openReservations: PersistentMap(
        [...this.openReservations].map(
          ([id, { customerKey, total }]) => [id, { customerKey, total: money(total) }] as const,
        ),
      ),
      closedReservations: ClosedReservations.from(this.closedReservations),
      pendingByCustomer: PersistentMap(this.pendingByCustomer),
    };
  }
}
