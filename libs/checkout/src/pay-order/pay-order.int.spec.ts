import { Test } from '@nestjs/testing';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import {
  DAY_MS,
  DomainError,
  Environment,
  evolveLedger,
  initialLedgerState,
  LedgerEvent,
  ledgerStreamId,
  OrderMethod,
  upcastLedgerEvent,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE, READ_MODELS, SQL_CLIENT } from '@payouts/platform';
import type { ReadModelClient } from '@payouts/read-models';
import { SetPricingCommand, SettlementsModule } from '@payouts/settlements';
import { TestDatabase, TestInfrastructureModule, testBackends } from '@payouts/testing';
import type { SqlClient } from '@payouts/database';
import { ACQUIRER, AuthorizationRequest, PaymentInstrumentInput } from '../acquirer/acquirer.port';
import { SimulatedAcquirer } from '../acquirer/simulated-acquirer';
import { CheckoutModule } from '../checkout.module';
import { CreateOrderCommand } from '../create-order/create-order.command';
import { OrderIds } from '../shared/order-ids';
import { PayOrderCommand } from './pay-order.command';
import { PayOrderHandler } from './pay-order.handler';

const CARD: PaymentInstrumentInput = {
  kind: 'card',
  number: '4242424242424242',
  expiryMonth: 12,
  expiryYear: 2099,
  securityCode: '123',
  name: 'Ana Example',
};
const WALLET: PaymentInstrumentInput = { kind: 'wallet', account: 'ana@example.com' };

/** The simulator, counting how often it is asked (the handler must ask once per command). */
class CountingAcquirer extends SimulatedAcquirer {
  asked = 0;
  override authorize(request: AuthorizationRequest) {
    this.asked += 1;
    return super.authorize(request);
  }
}

describe.each(testBackends())('paying an order records its proceeds on $name', (backend) => {
  let database: TestDatabase;
  let commands: CommandBus;
  let store: EventStore;
  let db: SqlClient;
  let orderIds: OrderIds;
  let handler: PayOrderHandler;
  const acquirer = new CountingAcquirer();
  const clock: Clock = { now: () => new Date() };
  let close: () => Promise<void>;
  let accounts = 0;

  beforeAll(async () => {
    database = await backend.open();
    const moduleRef = await Test.createTestingModule({
      imports: [
        CqrsModule.forRoot(),
        TestInfrastructureModule.over(database.db, clock),
        CheckoutModule,
        SettlementsModule,
      ],
    })
      .overrideProvider(ACQUIRER)
      .useValue(acquirer)
      .compile();
    await moduleRef.init();
    commands = moduleRef.get(CommandBus);
    store = moduleRef.get(EVENT_STORE);
    db = moduleRef.get(SQL_CLIENT);
    orderIds = moduleRef.get(OrderIds);
    handler = moduleRef.get(PayOrderHandler);
    close = async () => {
      await moduleRef.get<ReadModelClient>(READ_MODELS).$disconnect();
      await moduleRef.close();
    };
  });
  afterAll(async () => {
    await close();
    await database.drop();
  });

  const newAccount = () => `acct_pay_${backend.name}_${(accounts += 1)}`;

  async function order(
    accountId: string,
    amount: string,
    method: OrderMethod = 'card',
    currency = 'USD',
    environment: Environment = 'sandbox',
  ): Promise<number> {
    const orderId = await orderIds.next();
    await commands.execute(
      new CreateOrderCommand({
        orderId,
        accountId,
        environment,
        region: currency === 'EUR' ? 'EU' : 'US',
        method,
        amount,
        currency,
        customer: 'payer@example.com',
        credentialId: 'cred_test',
      }),
    );
    return orderId;
  }

  async function ledgerEvents(streamId: string): Promise<LedgerEvent[]> {
    const { events } = await store.readStream(streamId);
    return events.map((e) =>
      upcastLedgerEvent({ type: e.type, schemaVersion: e.schemaVersion, data: e.data }),
    );
  }

  it('records a card payment of 100.00 with the default fee 3.20 and net 96.80, clearing in 2 days', async () => {
    const accountId = newAccount();
    const orderId = await order(accountId, '100.00');
    const paid = await commands.execute(new PayOrderCommand(orderId, CARD));
    expect(paid.paid).toBe(true);
    const paidAt = paid.order.paidAt!;
    const events = await ledgerEvents(ledgerStreamId(accountId, 'sandbox'));
    expect(events).toEqual([
      {
        type: 'PaymentProceedsRecorded',
        data: {
          orderId,
          method: 'card',
          gross: '100.00',
          fee: '3.20',
          net: '96.80',
          paidAt,
          availableOn: new Date(Date.parse(paidAt) + 2 * DAY_MS).toISOString(),
          at: expect.any(String),
        },
      },
    ]);
    const state = events.reduce(evolveLedger, initialLedgerState());
    expect(state.pending.toFixed(2)).toBe('96.80');
    expect(state.available.toFixed(2)).toBe('0.00');
    const due = await db.query<{ next_due_at: Date }>(
      'SELECT next_due_at FROM funds_maturing WHERE ledger_stream_id = $1',
      [ledgerStreamId(accountId, 'sandbox')],
    );
    const [recorded] = events;
    if (recorded?.type !== 'PaymentProceedsRecorded') throw new Error('no proceeds recorded');
    expect(new Date(due.rows[0]!.next_due_at).toISOString()).toBe(recorded.data.availableOn);
  });

  it('charges a wallet payment of 10.00 the other methods’ default 1.50%: fee 0.15, clearing in 1 day', async () => {
    const accountId = newAccount();
    const orderId = await order(accountId, '10.00', 'mobile_wallet');
    const paid = await commands.execute(new PayOrderCommand(orderId, WALLET));
    const [event] = await ledgerEvents(ledgerStreamId(accountId, 'sandbox'));
    expect(event).toMatchObject({
      type: 'PaymentProceedsRecorded',
      data: { gross: '10.00', fee: '0.15', net: '9.85' },
    });
    expect(event!.type === 'PaymentProceedsRecorded' && event!.data.availableOn).toBe(
      new Date(Date.parse(paid.order.paidAt!) + DAY_MS).toISOString(),
    );
  });

  it('rounds the fee half up to the cent: 2.90% of 0.50 plus 0.30 is 0.3145, charged 0.31', async () => {
    const accountId = newAccount();
    await commands.execute(new PayOrderCommand(await order(accountId, '0.50'), CARD));
    const [event] = await ledgerEvents(ledgerStreamId(accountId, 'sandbox'));
    expect(event).toMatchObject({ data: { gross: '0.50', fee: '0.31', net: '0.19' } });
  });

  it('uses the pricing the operator set, and never charges more than the gross', async () => {
    const accountId = newAccount();
    await commands.execute(
      new SetPricingCommand(accountId, 'sandbox', {
        methods: { card: { percent: '10', fixed: '5.00' } },
        clearingDays: { card: 0 },
      }),
    );
    await commands.execute(new PayOrderCommand(await order(accountId, '100.00'), CARD));
    await commands.execute(new PayOrderCommand(await order(accountId, '1.00'), CARD));
    const events = await ledgerEvents(ledgerStreamId(accountId, 'sandbox'));
    expect(events.map((e) => e.type === 'PaymentProceedsRecorded' && [e.data.fee, e.data.net])).toEqual([
      ['15.00', '85.00'],
      ['1.00', '0.00'],
    ]);
    // Production keeps the defaults: pricing is per environment.
    await commands.execute(
      new PayOrderCommand(await order(accountId, '100.00', 'card', 'USD', 'production'), CARD),
    );
    const [production] = await ledgerEvents(ledgerStreamId(accountId, 'production'));
    expect(production).toMatchObject({ data: { fee: '3.20' } });
  });

  it('records a EUR payment on the account’s EUR ledger, not the USD one', async () => {
    const accountId = newAccount();
    await commands.execute(new PayOrderCommand(await order(accountId, '20.00', 'card', 'EUR'), CARD));
    expect(await ledgerEvents(ledgerStreamId(accountId, 'sandbox'))).toEqual([]);
    const [event] = await ledgerEvents(ledgerStreamId(accountId, 'sandbox', 'EUR'));
    expect(event).toMatchObject({ type: 'PaymentProceedsRecorded', data: { gross: '20.00', fee: '0.88' } });
  });

  it('records nothing on the ledger for a declined attempt', async () => {
    const accountId = newAccount();
    const orderId = await order(accountId, '30.00');
    const declined = await commands.execute(
      new PayOrderCommand(orderId, { ...CARD, number: '4000000000000002' }),
    );
    expect(declined.paid).toBe(false);
    expect(await ledgerEvents(ledgerStreamId(accountId, 'sandbox'))).toEqual([]);
  });

  it('asks the acquirer once per command: deciding again (after a version conflict) reuses its answer', async () => {
    const accountId = newAccount();
    const orderId = await order(accountId, '40.00');
    const command = new PayOrderCommand(orderId, CARD);
    const before = acquirer.asked;
    const first = await handler.decide(command);
    // Another writer moves the ledger: the first decision's append would conflict.
    await commands.execute(new PayOrderCommand(await order(accountId, '5.00'), CARD));
    const again = await handler.decide(command);
    expect(acquirer.asked - before).toBe(2); // this command once, the other order once
    expect(again.plan.appends[1]!.expectedVersion).toBe(1);
    expect(first.plan.appends[1]!.expectedVersion).toBe('no_stream');
  });

  it('commits the order and its proceeds together: a stale ledger version writes neither', async () => {
    const accountId = newAccount();
    const orderId = await order(accountId, '12.00');
    const stale = await handler.decide(new PayOrderCommand(orderId, CARD));
    await commands.execute(new PayOrderCommand(await order(accountId, '7.00'), CARD));
    await expect(store.append([...stale.plan.appends])).rejects.toThrow();
    const { events } = await store.readStream(`order-${orderId}`);
    expect(events.map((e) => e.type)).toEqual(['OrderCreated']);
    // Through the write path the conflict is decided again and both commit.
    const paid = await commands.execute(new PayOrderCommand(orderId, CARD));
    expect(paid.paid).toBe(true);
    expect((await ledgerEvents(ledgerStreamId(accountId, 'sandbox'))).length).toBe(2);
  });

  it('refuses an order already paid, without asking the acquirer', async () => {
    const accountId = newAccount();
    const orderId = await order(accountId, '3.00');
    await commands.execute(new PayOrderCommand(orderId, CARD));
    const before = acquirer.asked;
    await expect(commands.execute(new PayOrderCommand(orderId, CARD))).rejects.toMatchObject({
      code: 'order_not_payable',
    } satisfies Partial<DomainError>);
    expect(acquirer.asked).toBe(before);
  });
});
