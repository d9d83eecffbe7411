import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@payouts/database';

/** How long a holder may take before another submission may take the order over (a dead process). */
export const PAYMENT_LOCK_LEASE_MS = 30_000;
/** How long a submission waits for another process's attempt on the order before it says so. */
export const PAYMENT_LOCK_WAIT_MS = 5_000;
/** How often a waiting submission asks again while another process holds the order. */
const RETRY_MS = 50;

/** Another attempt on the order is being authorized and did not finish within the wait. */
export class PaymentInProgressError extends Error {
  constructor(readonly orderId: number) {
    super(`a payment attempt on order ${orderId} is in progress`);
    this.name = 'PaymentInProgressError';
  }
}

/**
 * At most one payment attempt in flight per order, so the acquirer is asked once per attempt
 * whatever the payer (or their browser, or a proxy) submits at once.
 *
 * Within a process, submissions on one order queue behind each other in memory. Across
 * processes, the head of each queue takes the order's row in `order_payment_locks`, a lease of
 * PAYMENT_LOCK_LEASE_MS; while another process holds it, the submission asks again every
 * RETRY_MS for up to PAYMENT_LOCK_WAIT_MS, then gives up with PaymentInProgressError. A lease left
 * by a process that died is taken over once it ends; the attempt it was making is retried under
 * the same acquirer key (the key counts recorded attempts, and the dead one recorded nothing).
 */
export class OrderPaymentLock {
  private readonly queues = new Map<number, Promise<void>>();

  private readonly leaseMs: number;
  private readonly waitMs: number;

  constructor(
    private readonly db: SqlClient,
    options: { leaseMs?: number; waitMs?: number } = {},
  ) {
    this.leaseMs = options.leaseMs ?? PAYMENT_LOCK_LEASE_MS;
    this.waitMs = options.waitMs ?? PAYMENT_LOCK_WAIT_MS;
  }

  async run<T>(orderId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(orderId) ?? Promise.resolve();
    let done!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => (done = resolve)));
    this.queues.set(orderId, tail);
    await previous;
    try {
      return await this.leased(orderId, work);
    } finally {
      done();
      if (this.queues.get(orderId) === tail) this.queues.delete(orderId);
    }
  }

  private async leased<T>(orderId: number, work: () => Promise<T>): Promise<T> {
    const holder = randomUUID();
    const deadline = Date.now() + this.waitMs;
    while (!(await this.take(orderId, holder))) {
      if (Date.now() >= deadline) throw new PaymentInProgressError(orderId);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    try {
      return await work();
    } finally {
      // A release lost with the database is harmless: the lease ends by itself.
      await this.db
        .query('DELETE FROM order_payment_locks WHERE order_id = $1 AND holder = $2', [orderId, holder])
        .catch(() => undefined);
    }
  }

  /** Takes the order's row when it is free or its lease is over; true when this holder has it. */
  private async take(orderId: number, holder: string): Promise<boolean> {
    const { rows } = await this.db.query<{ holder: string }>(
      `INSERT INTO order_payment_locks (order_id, holder, locked_until)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (order_id) DO UPDATE SET holder = EXCLUDED.holder, locked_until = EXCLUDED.locked_until
         WHERE order_payment_locks.locked_until < now()
       RETURNING holder`,
      [orderId, holder, this.leaseMs],
    );
    return rows[0]?.holder === holder;
  }
}
