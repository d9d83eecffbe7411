import { Map as PersistentMap } from 'immutable';
import { ClosedReservations, FloatEvent, FloatState, ReservationOutcome } from '@payouts/domain';
import { cents, money } from './tally-cents';

/**
 * verify's fast fold of one payout float, for the events it can prove the domain accepts: the
 * float counterpart of LedgerTally. The domain's evolveFloat stays the definition; this is the
 * same arithmetic in BigInt cents on mutable maps. A float is one stream per environment with a
 * reservation, a payment or a release for every confirmed payout (about a tenth of the bench log),
 * and evolveFloat's persistent map, big.js sums and state copy per event made it the costliest
 * fold per event (docs/performance.md).
 *
 * tryApply applies an event only when the domain would accept it, with the same effect, and
 * answers false otherwise, changing nothing: for an event the domain refuses (its message is the
 * finding) and for values this fold does not model (an amount with a sign or more than two
 * decimals, a payout id that is not a string). The caller then hands the float to the domain for
 * good (toDomainState). A property test checks the two agree on generated histories.
 */
export class FloatTally {
  private toppedUp = 0n;
  private available = 0n;
  private reserved = 0n;
  private paidOut = 0n;
  private readonly openReservations = new Map<string, bigint>();
  /** In the order they closed, as ClosedReservations keeps them. */
  private readonly closedReservations = new Map<string, ReservationOutcome>();

  /** Applies the event if the domain certainly accepts it; false (and no change) otherwise. */
  tryApply(event: FloatEvent): boolean {
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null) return false;
    switch (event.type) {
      case 'FloatToppedUp': {
        // Unsigned amounts only: available and conservation then hold as they did before.
        const amount = cents(event.data.amount);
        if (amount === null) return false;
        this.toppedUp += amount;
        this.available += amount;
        return true;
      }
      case 'FloatReserved': {
        const { payoutId } = event.data;
        const amount = cents(event.data.amount);
        if (typeof payoutId !== 'string' || amount === null) return false;
        if (this.openReservations.has(payoutId) || this.closedReservations.has(payoutId)) return false;
        // Conservation holds (the amount moves from available to reserved); available must stay >= 0.
        if (this.available < amount) return false;
        this.available -= amount;
        this.reserved += amount;
        this.openReservations.set(payoutId, amount);
        return true;
      }
      case 'FloatReleased':
      case 'FloatPaidOut': {
        const { payoutId } = event.data;
        const amount = typeof payoutId === 'string' ? this.openReservations.get(payoutId) : undefined;
        if (amount === undefined || cents(event.data.amount) !== amount) return false;
        // The reservation is part of reserved, so reserved stays >= 0; the amount moves to
        // available (released) or paid out (paid), and conservation holds either way.
        const released = event.type === 'FloatReleased';
        this.reserved -= amount;
        if (released) this.available += amount;
        else this.paidOut += amount;
        this.openReservations.delete(payoutId);
        this.closedReservations.set(payoutId, released ? 'released' : 'settled');
        return true;
      }
      default:
        return false;
    }
  }

  /** The same float as the domain's state, to go on folding it through evolveFloat. */
  toDomainState(): FloatState {
    return {
      toppedUp: money(this.toppedUp),
      available: money(this.available),
      reserved: money(this.reserved),
      paidOut: money(this.paidOut),
      openReservations: PersistentMap(
        [...this.openReservations].map(([payoutId, amount]) => [payoutId, money(amount)] as const),
      ),
      closedReservations: ClosedReservations.from(this.closedReservations),
    };
  }
}
