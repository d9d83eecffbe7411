import { randomBytes } from 'node:crypto';
import type { AppConfig } from '@payouts/config';
import {
  currenciesOfRegion,
  DAY_MS,
  DomainError,
  Environment,
  HOUR_MS,
  ledgerStreamId,
} from '@payouts/domain';
import { dailySettlementId, manualSettlementId } from '@payouts/settlements';
import { FundsCommands } from './funds-commands';
import { CheckoutAccount, OrderTraffic } from './order-traffic';
import { Attempt, PayoutTraffic } from './payout-traffic';
import { Random, randomCents } from './random-values';
import { Schedule } from './schedule';

const REGIONS = ['US', 'EU', 'GB', 'US', 'CA', 'AU', 'US', 'NZ'] as const;

/** Top-level actions per simulated minute are spread so the log spans about this many days. */
export const EVENTS_PER_ACTION = 4;

export interface TrafficCounts {
  /** Commands refused (the API's 4xx, nothing written), by the domain's code. */
  refused: Record<string, number>;
  /** Top-level actions taken, by kind. */
  actions: Record<string, number>;
}

/** Runs one command, counting a refusal by its code; anything else is a builder bug and throws. */
export function countingRefusals(counts: TrafficCounts): Attempt {
  return (run) => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      counts.refused[error.code] = (counts.refused[error.code] ?? 0) + 1;
    }
  };
}

/**
 * The service's traffic over many accounts, interleaved: at each simulated step one account
 * (picked at random) creates an order or a payout, is credited by the operator, sets a retained
 * target or pricing, or has the operator run a settlement now; every follow-up (payments, claims,
 * the worker's steps, the nightly settlement run and the rail's answers) happens at its own
 * later time. Accounts open with their limits in both environments (as Create Account does), an
 * opening credit and, for some, a retained target and pricing.
 */
export class Traffic {
  private readonly accounts: CheckoutAccount[] = [];
  private readonly ledgers = new Set<string>();
  private nextNightlyRunMs: number;

  constructor(
    private readonly funds: FundsCommands,
    private readonly orders: OrderTraffic,
    private readonly payouts: PayoutTraffic,
    private readonly schedule: Schedule,
    private readonly random: Random,
    private readonly config: Pick<AppConfig, 'defaultLimits' | 'sandboxFloatOpeningBalance'>,
    private readonly counts: TrafficCounts,
  ) {
    this.attempt = countingRefusals(counts);
    this.nextNightlyRunMs = Math.floor(schedule.nowMs / DAY_MS) * DAY_MS + DAY_MS + 2 * HOUR_MS;
  }

  private readonly attempt: Attempt;

  /** The accounts, and the floats: production's opening `productionFloat`, sandbox's as the worker opens it. */
  open(accounts: number, productionFloat: string): void {
    const now = this.schedule.now;
    this.funds.onFloat('production', topUp('production', productionFloat, 'opening'), now);
    this.funds.onFloat(
      'sandbox',
      topUp('sandbox', this.config.sandboxFloatOpeningBalance, 'opening_balance'),
      now,
    );
    for (let i = 0; i < accounts; i += 1) {
      const accountId = `acct_${randomBytes(12).toString('hex')}`;
      const region = REGIONS[i % REGIONS.length]!;
      const environment: Environment = this.random.chance(0.8) ? 'production' : 'sandbox';
      const account = {
        accountId,
        environment,
        region,
        currencies: currenciesOfRegion(region),
        credentialId: `cred_${randomBytes(12).toString('hex')}`,
      };
      this.accounts.push(account);
      for (const env of ['production', 'sandbox'] as const) {
        this.funds.onLedger(
          ledgerStreamId(accountId, env),
          {
            type: 'SetLedgerLimits',
            data: { accountId, environment: env, limits: this.config.defaultLimits },
          },
          now,
        );
      }
      for (const currency of account.currencies)
        this.ledgers.add(ledgerStreamId(accountId, environment, currency));
      this.credit(account, randomCents(this.random, 2_000, 20_000), 'opening balance');
      if (this.random.chance(0.5)) this.retainedTarget(account);
      if (this.random.chance(0.1)) this.pricing(account);
    }
  }

  /** Steps the simulated clock by `stepMs`, running what fell due, then one account's action. */
  step(stepMs: number): void {
    const to = this.schedule.nowMs + stepMs;
    while (this.nextNightlyRunMs <= to) {
      this.schedule.advance(this.nextNightlyRunMs);
      this.nightlyRun();
      this.nextNightlyRunMs += DAY_MS;
    }
    this.schedule.advance(to);
    const account = this.random.pick(this.accounts);
    const roll = this.random.next();
    if (roll < 0.5) this.act('order', () => this.orders.create(account));
    else if (roll < 0.9)
      this.act('payout', () => this.payouts.create(account.accountId, account.environment));
    else if (roll < 0.95)
      this.act('credit', () => this.credit(account, randomCents(this.random, 100, 5_000), 'top up'));
    else if (roll < 0.98) this.act('retained_target', () => this.retainedTarget(account));
    else if (roll < 0.99) this.act('pricing', () => this.pricing(account));
    else
      this.act('manual_settlement', () =>
        this.settle(ledgerStreamId(account.accountId, account.environment), manualSettlementId(), 'manual'),
      );
  }

  private act(kind: string, run: () => void): void {
    this.counts.actions[kind] = (this.counts.actions[kind] ?? 0) + 1;
    run();
  }

  private credit(account: CheckoutAccount, amount: string, reason: string): void {
    const { accountId, environment } = account;
    const reference = `wire-${randomBytes(6).toString('hex')}`;
    this.attempt(() =>
      this.funds.onLedger(
        ledgerStreamId(accountId, environment),
        { type: 'CreditFunds', data: { accountId, environment, amount, reference, reason } },
        this.schedule.now,
      ),
    );
  }

  private retainedTarget(account: CheckoutAccount): void {
    const amount = `${this.random.int(0, 40) * 50}.00`;
    const ledgerId = ledgerStreamId(account.accountId, account.environment);
    this.attempt(() =>
      this.funds.onLedger(ledgerId, { type: 'SetRetainedTarget', data: { amount } }, this.schedule.now),
    );
  }

  private pricing(account: CheckoutAccount): void {
    const input = {
      methods: { card: { percent: this.random.pick(['2.50', '2.90', '3.10']), fixed: '0.25' } },
      clearingDays: { card: this.random.int(1, 3), online_wallet: this.random.int(0, 2) },
    };
    this.attempt(() =>
      this.funds.setPricing(account.accountId, account.environment, input, this.schedule.now),
    );
  }

  /** The worker's nightly run: a daily settlement of every ledger (each id once per ledger and day). */
  private nightlyRun(): void {
    const day = this.schedule.now.toISOString().slice(0, 10);
    for (const ledgerId of this.ledgers) this.settle(ledgerId, dailySettlementId(ledgerId, day), 'daily');
  }

  /** Starts a settlement; the rail answers within hours, nearly always paid. */
  private settle(ledgerId: string, settlementId: string, trigger: 'daily' | 'manual'): void {
    this.attempt(() => {
      const started = this.funds.onLedger(
        ledgerId,
        { type: 'StartSettlement', data: { settlementId, trigger } },
        this.schedule.now,
      );
      if (started === 0) return;
      const paid = this.random.chance(0.93);
      this.schedule.after(this.random.int(HOUR_MS, 4 * HOUR_MS), () =>
        this.attempt(() =>
          this.funds.onLedger(
            ledgerId,
            {
              type: 'CompleteSettlement',
              data: paid
                ? { settlementId, outcome: 'paid' }
                : { settlementId, outcome: 'failed', reason: 'account_closed' },
            },
            this.schedule.now,
          ),
        ),
      );
    });
  }
}

function topUp(environment: Environment, amount: string, reference: string) {
  return { type: 'TopUpFloat' as const, data: { environment, amount, reference } };
}
