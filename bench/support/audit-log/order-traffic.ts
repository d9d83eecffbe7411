import { keptInstrument, PaymentInstrumentInput, SANDBOX_CARDS } from '@payouts/checkout';
import {
  cardAvailableIn,
  DEFAULT_CARD_REGIONS,
  Environment,
  MAX_MATURED_PER_COMMAND,
  MINUTE_MS,
  ORDER_METHODS,
  OrderDeclineReason,
  OrderMethod,
} from '@payouts/domain';
import { FundsCommands } from './funds-commands';
import { Attempt as OrderAttempt, OrderCommands } from './order-commands';
import type { Attempt } from './payout-traffic';
import { Random, randomCents } from './random-values';
import { Schedule } from './schedule';

/** An account as checkout sees it: its region decides its currencies and whether it takes cards. */
export interface CheckoutAccount {
  accountId: string;
  environment: Environment;
  region: string;
  currencies: readonly string[];
  credentialId: string;
}

const WALLET_METHODS = ORDER_METHODS.filter((method) => method !== 'card');

/**
 * Checkout traffic: an order created, then paid within minutes (sometimes after a declined
 * attempt), or abandoned and expired by the worker; a paid order's proceeds mature on their
 * clearing day, when the worker's maturing run reaches the ledger.
 */
export class OrderTraffic {
  private nextOrderId: number;

  constructor(
    private readonly orders: OrderCommands,
    private readonly funds: FundsCommands,
    private readonly schedule: Schedule,
    private readonly random: Random,
    private readonly attempt: Attempt,
    firstOrderId: number,
    private readonly ttlMs: number,
  ) {
    this.nextOrderId = firstOrderId;
  }

  /** The last order id used (the order-id sequence is set past it). */
  get lastOrderId(): number {
    return this.nextOrderId - 1;
  }

  create(account: CheckoutAccount): void {
    const orderId = this.nextOrderId++;
    const method: OrderMethod =
      cardAvailableIn(account.region, DEFAULT_CARD_REGIONS) && this.random.chance(0.6)
        ? 'card'
        : this.random.pick(WALLET_METHODS);
    const currency = this.random.pick(account.currencies);
    this.attempt(() => {
      this.orders.create(
        {
          orderId,
          accountId: account.accountId,
          environment: account.environment,
          method,
          amount: randomCents(this.random, 5, 400),
          currency,
          customer: `payer-${orderId}@example.com`,
          product: this.random.chance(0.7) ? 'Blue mug' : null,
          redirectUrl: null,
          hookUrl: null,
          credentialId: account.credentialId,
          region: account.region,
        },
        this.schedule.now,
      );
      this.afterCreate(orderId, method);
    });
  }

  private afterCreate(orderId: number, method: OrderMethod): void {
    const roll = this.random.next();
    const firstAttempt = this.random.int(MINUTE_MS, 20 * MINUTE_MS);
    if (roll < 0.1) this.schedule.after(firstAttempt, () => this.pay(orderId, method, false));
    if (roll < 0.82) {
      this.schedule.after(firstAttempt + this.random.int(0, 3 * MINUTE_MS), () =>
        this.pay(orderId, method, true),
      );
    } else {
      if (roll < 0.9) this.schedule.after(firstAttempt, () => this.pay(orderId, method, false));
      this.schedule.after(this.ttlMs + this.random.int(MINUTE_MS, 15 * MINUTE_MS), () =>
        this.attempt(() => this.orders.expire(orderId, this.schedule.now)),
      );
    }
  }

  private pay(orderId: number, method: OrderMethod, approved: boolean): void {
    this.attempt(() => {
      const proceeds = this.orders.pay(orderId, this.outcome(method, approved), this.schedule.now);
      if (proceeds === null) return;
      // The worker's maturing run for this ledger, on the payment's clearing day.
      const { ledgerId, availableOn } = proceeds;
      this.schedule.at(Date.parse(availableOn) + this.random.int(MINUTE_MS, 10 * MINUTE_MS), () =>
        this.attempt(() =>
          this.funds.onLedger(
            ledgerId,
            { type: 'MatureProceeds', data: { max: MAX_MATURED_PER_COMMAND } },
            this.schedule.now,
          ),
        ),
      );
    });
  }

  /** The simulated acquirer's answer for a sandbox card or wallet that pays or is declined. */
  private outcome(method: OrderMethod, approved: boolean): OrderAttempt {
    const card = method === 'card';
    const declined: OrderDeclineReason = card
      ? this.random.pick(['card_declined', 'insufficient_funds'] as const)
      : 'wallet_declined';
    const input: PaymentInstrumentInput = card
      ? {
          kind: 'card',
          number: approved
            ? SANDBOX_CARDS.paid
            : declined === 'card_declined'
              ? SANDBOX_CARDS.declined
              : SANDBOX_CARDS.insufficientFunds,
          expiryMonth: 12,
          expiryYear: 2034,
          securityCode: '123',
          name: 'Bench payer',
        }
      : { kind: 'wallet', account: approved ? 'payer-wallet-0042' : 'payer-wallet-fail' };
    const instrument = keptInstrument(input);
    return approved ? { approved: true, instrument } : { approved: false, reason: declined, instrument };
  }
}
