import type { Acquirer, AuthorizationOutcome, AuthorizationRequest } from './acquirer.port';
import { keptInstrument } from './payment-instruments';

/** Sandbox card numbers (ARCHITECTURE 6); any other valid number is paid. */
export const SANDBOX_CARDS = Object.freeze({
  paid: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
});

/**
 * The built-in acquirer: decides an attempt from the instrument alone, at once, as a sandbox
 * acquirer does (`4000 0000 0000 0002` declined, `4000 0000 0000 9995` declined for insufficient
 * funds, a wallet account ending in `fail` declined, everything else approved). The page has
 * already checked the card's form (Luhn, expiry in the future).
 */
export class SimulatedAcquirer implements Acquirer {
  authorize(request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    const instrument = keptInstrument(request.instrument);
    const input = request.instrument;
    if (input.kind === 'card') {
      if (input.number === SANDBOX_CARDS.declined) return decline('card_declined');
      if (input.number === SANDBOX_CARDS.insufficientFunds) return decline('insufficient_funds');
    } else if (input.account.toLowerCase().endsWith('fail')) {
      return decline('wallet_declined');
    }
    return Promise.resolve({ approved: true, instrument });

    function decline(reason: 'card_declined' | 'insufficient_funds' | 'wallet_declined') {
      return Promise.resolve<AuthorizationOutcome>({ approved: false, reason, instrument });
    }
  }
}
