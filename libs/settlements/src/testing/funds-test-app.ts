import { Test } from '@nestjs/testing';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { CheckoutModule, CreateOrderCommand, OrderIds, PayOrderCommand } from '@payouts/checkout';
import type { Clock } from '@payouts/clock';
import type { SqlClient } from '@payouts/database';
import {
  evolveLedger,
  initialLedgerState,
  LedgerLimits,
  LedgerState,
  ledgerStreamId,
  upcastLedgerEvent,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { CreditFundsCommand, PayoutsModule, SetLedgerLimitsCommand } from '@payouts/payouts';
import { EVENT_STORE, READ_MODELS, SQL_CLIENT } from '@payouts/platform';
import type { ReadModelClient } from '@payouts/read-models';
import { TestBackend, TestInfrastructureModule } from '@payouts/testing';
import { PricingQueries } from '../pricing/account-pricing';
import { SETTLEMENT_RAIL, SettlementRail } from '../settlement-rail/settlement-rail.port';
import { SettlementRailSettings } from '../settlement-rail/simulated-settlement-rail';
import { SettlementRuns } from '../settlement-run/settlement-runs';
import { SettlementsModule } from '../settlements.module';

const LIMITS: LedgerLimits = {
  feePerPayout: '0.50',
  minPayout: '1.00',
  maxPayout: '500.00',
  maxOpenExposure: '100000.00',
  maxPendingPerCustomer: 1000,
};

/**
 * The funds flow's modules (with payouts and checkout, whose commands feed the ledgers) over a
 * real database for the int specs, with a sandbox clock the test moves (`advanceSandbox`).
 */
export async function openFundsTestApp(backend: TestBackend) {
  const database = await backend.open();
  let offsetMs = 0;
  const clock: Clock = { now: (env) => new Date(Date.now() + (env === 'sandbox' ? offsetMs : 0)) };
  const moduleRef = await Test.createTestingModule({
    imports: [
      CqrsModule.forRoot(),
      TestInfrastructureModule.over(database.db, clock),
      PayoutsModule,
      CheckoutModule,
      SettlementsModule,
    ],
  }).compile();
  await moduleRef.init();
  const commands = moduleRef.get(CommandBus);
  const store = moduleRef.get<EventStore>(EVENT_STORE);
  const orderIds = moduleRef.get(OrderIds);
  let accounts = 0;

  async function ledgerState(streamId: string): Promise<LedgerState> {
    const { events } = await store.readStream(streamId);
    return events
      .map((e) => upcastLedgerEvent({ type: e.type, schemaVersion: e.schemaVersion, data: e.data }))
      .reduce(evolveLedger, initialLedgerState());
  }

  /** A new sandbox ledger with limits and, unless 0.00, an operator credit. */
  async function fundedLedger(funds: string): Promise<{ accountId: string; ledger: string }> {
    const accountId = `acct_funds_${backend.name}_${(accounts += 1)}`;
    await commands.execute(new SetLedgerLimitsCommand(accountId, 'sandbox', LIMITS));
    if (funds !== '0.00')
      await commands.execute(new CreditFundsCommand(accountId, 'sandbox', funds, 'initial'));
    return { accountId, ledger: ledgerStreamId(accountId, 'sandbox') };
  }

  /** A sandbox card order of the account, paid (its proceeds recorded on the USD ledger). */
  async function paidCardOrder(accountId: string, amount: string): Promise<number> {
    const orderId = await orderIds.next();
    await commands.execute(
      new CreateOrderCommand({
        orderId,
        accountId,
        environment: 'sandbox',
        region: 'US',
        method: 'card',
        amount,
        currency: 'USD',
        customer: 'payer@example.com',
        credentialId: 'cred_test',
      }),
    );
    const card = {
      kind: 'card' as const,
      number: '4242424242424242',
      expiryMonth: 12,
      expiryYear: 2099,
      securityCode: '123',
      name: 'Ana',
    };
    await commands.execute(new PayOrderCommand(orderId, card));
    return orderId;
  }

  return {
    commands,
    store,
    db: moduleRef.get<SqlClient>(SQL_CLIENT),
    runs: moduleRef.get(SettlementRuns),
    rail: moduleRef.get<SettlementRail>(SETTLEMENT_RAIL),
    railSettings: moduleRef.get(SettlementRailSettings),
    pricing: moduleRef.get(PricingQueries),
    advanceSandbox: (ms: number) => {
      offsetMs += ms;
    },
    ledgerState,
    fundedLedger,
    paidCardOrder,
    close: async () => {
      await moduleRef.get<ReadModelClient>(READ_MODELS).$disconnect();
      await moduleRef.close();
      await database.drop();
    },
  };
}

export type FundsTestApp = Awaited<ReturnType<typeof openFundsTestApp>>;
