import type { Acquirer, AuthorizationOutcome, AuthorizationRequest } from './acquirer.port';
import { keptInstrument } from './payment-instruments';

/** Sandbox card numbers (docs/checkout.md); any other valid number is paid. */
export const SANDBOX_CARDS = Object.freeze({
  paid: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
});

/** Keys the simulator remembers; the oldest is forgotten past it, as an acquirer's keys expire. */
export const SIMULATOR_KEYS_KEPT = 100_000;

/**
 * The built-in acquirer: decides an attempt from the instrument alone, at once, as a sandbox
 * acquirer does (`4000 0000 0000 0002` declined, `4000 0000 0000 9995` declined for insufficient
 * funds, a wallet account ending in `fail` declined, everything else approved). The page has
 * already checked the card's form (Luhn, expiry in the future).
 *
 * Like a real acquirer it honours the idempotency key: a request with a key it has seen gets the
 * first answer and makes no second authorization. It counts the authorizations it made, so tests
 * can hold the service to one per attempt.
 */
export class SimulatedAcquirer implements Acquirer {
  private readonly answers = new Map<string, AuthorizationOutcome>();
  private readonly perOrder = new Map<number, number>();
  private made = 0;

  /** Authorizations made since the process started (requests answered from a key excluded). */
  get authorizations(): number {
    return this.made;
  }

  /** Authorizations made for one order. */
  authorizationsFor(orderId: number): number {
    return this.perOrder.get(orderId) ?? 0;
  }

  authorize(request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    const known = this.answers.get(request.idempotencyKey);
    if (known) return Promise.resolve(known);
    const outcome = decide(request);
    this.made += 1;
    this.perOrder.set(request.orderId, this.authorizationsFor(request.orderId) + 1);
    if (this.answers.size >= SIMULATOR_KEYS_KEPT) {
      this.answers.delete(this.answers.keys().next().value as string);
    }
    this.answers.set(request.idempotencyKey, outcome);
    return Promise.resolve(outcome);
  }
}

function decide(request: AuthorizationRequest): AuthorizationOutcome {
  const instrument = keptInstrument(request.instrument);
  const input = request.instrument;
  if (input.kind === 'card') {
    if (input.number === SANDBOX_CARDS.declined)
      return { approved: false, reason: 'card_declined', instrument };
    if (input.number === SANDBOX_CARDS.insufficientFunds) {
      return { approved: false, reason: 'insufficient_funds', instrument };
    }
  } else if (input.account.toLowerCase().endsWith('fail')) {
    return { approved: false, reason: 'wallet_declined', instrument };
  }
  return { approved: true, instrument };
}
