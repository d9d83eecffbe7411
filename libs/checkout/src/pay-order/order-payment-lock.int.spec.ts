import { testBackends, TestDatabase } from '@payouts/testing';
import { OrderPaymentLock, PaymentInProgressError } from './order-payment-lock';

/** A promise and the function that settles it: work that runs until the test lets it finish. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.each(testBackends())('one payment attempt in flight per order on $name', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.drop());

  it('runs the submissions of one process on one order one after another, and other orders beside them', async () => {
    const lock = new OrderPaymentLock(database.db);
    const held = gate();
    const order: string[] = [];
    const first = lock.run(1, async () => {
      order.push('first starts');
      await held.opened;
      order.push('first ends');
    });
    const second = lock.run(1, () => Promise.resolve(void order.push('second runs')));
    const other = lock.run(2, () => Promise.resolve(void order.push('other order runs')));
    await other;
    held.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['first starts', 'other order runs', 'first ends', 'second runs']);
  });

  it('tells a second process that the payment is in progress while the first holds the order, and lets it in once it is released', async () => {
    const processA = new OrderPaymentLock(database.db);
    const processB = new OrderPaymentLock(database.db, { waitMs: 300 });
    const held = gate();
    const first = processA.run(3, () => held.opened);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(processB.run(3, () => Promise.resolve('B paid'))).rejects.toBeInstanceOf(
      PaymentInProgressError,
    );
    held.open();
    await first;
    await expect(processB.run(3, () => Promise.resolve('B paid'))).resolves.toBe('B paid');
  });

  it('lets a waiting process in as soon as the holder releases the order, within its wait', async () => {
    const processA = new OrderPaymentLock(database.db);
    const processB = new OrderPaymentLock(database.db, { waitMs: 5_000 });
    const held = gate();
    const first = processA.run(4, () => held.opened);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = processB.run(4, () => Promise.resolve('B ran'));
    setTimeout(held.open, 200);
    await expect(second).resolves.toBe('B ran');
    await first;
  });

  it('takes over an order whose holder died once its lease is over', async () => {
    // A process that died holding order 5: its row stays, with a lease that has ended.
    await database.db.query(
      `INSERT INTO order_payment_locks (order_id, holder, locked_until) VALUES (5, 'dead', now() - interval '1 second')`,
    );
    const lock = new OrderPaymentLock(database.db, { waitMs: 100 });
    await expect(lock.run(5, () => Promise.resolve('taken over'))).resolves.toBe('taken over');
    const { rows } = await database.db.query('SELECT * FROM order_payment_locks WHERE order_id = 5');
    expect(rows).toEqual([]);
  });

  it('does not take over a live lease, and releases the order when the work fails', async () => {
    const shortLease = new OrderPaymentLock(database.db, { leaseMs: 60_000, waitMs: 100 });
    await expect(shortLease.run(6, () => Promise.reject(new Error('acquirer unreachable')))).rejects.toThrow(
      'acquirer unreachable',
    );
    await expect(shortLease.run(6, () => Promise.resolve('free again'))).resolves.toBe('free again');
  });
});
