import { loadMigrations, migrate, SqlClient } from '@payouts/database';
import {
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutCreated,
  PayoutEvent,
  payoutStreamId,
} from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { testBackends } from '@payouts/testing';
import { appendTo } from '@payouts/write-side';
import {
  checkpointedSubscriptions,
  setCheckpoint,
} from '../../../event-store/src/testing/subscription-checkpoints';

/** The subscription that filled payout_jobs from the feed before migration 0025. */
const OLD_SUBSCRIPTION_ID = 'worker-payout-jobs';
const UPGRADE = '0025_payout_jobs_with_events';

const t = (day: number) => new Date(Date.UTC(2030, 0, day)).toISOString();

const created = (payoutId: string): PayoutCreated => ({
  type: 'PayoutCreated',
  data: {
    payoutId,
    accountId: 'acct_upgrade',
    environment: 'sandbox',
    amount: '10.00',
    fee: '0.50',
    totalReserved: '10.50',
    currency: 'USD',
    merchantReference: `ref-${payoutId}`,
    delivery: 'link',
    customerEmail: 'ana@example.com',
    customerId: null,
    returnUrl: null,
    description: null,
    caseReference: null,
    originalPaymentId: null,
    source: 'api',
    createdAt: t(1),
    payoutExpiresAt: t(8),
  },
});
const confirmed = (payoutId: string, day: number): PayoutEvent => ({
  type: 'PayoutConfirmed',
  data: { payoutId, selectedMethod: 'bank_transfer', acceptedAt: t(day) },
});
const reviewRequired = (payoutId: string): PayoutEvent => ({
  type: 'PayoutReviewRequired',
  data: { payoutId, reason: 'under_review', at: t(2) },
});
const approved = (payoutId: string): PayoutEvent => ({
  type: 'PayoutReviewApproved',
  data: { payoutId, at: t(3) },
});
const failed = (payoutId: string, day: number): PayoutEvent => ({
  type: 'PayoutFailed',
  data: { payoutId, reason: 'declined_by_rail', failedAt: t(day) },
});

interface Job {
  payout_id: string;
  expires_at: string | null;
  accepted_at: string | null;
  confirmed_seq: string | null;
  float_reserved: boolean;
  attempts: number;
  next_attempt_at: string | null;
  wake_count: string;
  finished_at: string | null;
}

async function jobs(db: SqlClient): Promise<Record<string, Omit<Job, 'payout_id'>>> {
  const { rows } = await db.query<Job>(
    `SELECT payout_id, to_json(expires_at)#>>'{}' AS expires_at, to_json(accepted_at)#>>'{}' AS accepted_at,
            confirmed_seq::text, float_reserved, attempts, to_json(next_attempt_at)#>>'{}' AS next_attempt_at,
            wake_count::text, to_json(finished_at)#>>'{}' AS finished_at
       FROM payout_jobs ORDER BY payout_id`,
  );
  return Object.fromEntries(
    rows.map(({ payout_id, ...job }) => [
      payout_id,
      {
        ...job,
        expires_at: iso(job.expires_at),
        accepted_at: iso(job.accepted_at),
        next_attempt_at: iso(job.next_attempt_at),
        finished_at: iso(job.finished_at),
      },
    ]),
  );
}

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** A job row as the create left it, then as later events and the worker changed it. */
const armed = {
  expires_at: t(8),
  accepted_at: null,
  confirmed_seq: null,
  float_reserved: false,
  attempts: 0,
  next_attempt_at: null,
  wake_count: '0',
  finished_at: null,
};

/**
 * Migration 0025 on a database the worker's feed subscription kept payout_jobs in: the payout
 * events it had not yet applied are applied as it would have, nothing it applied is applied
 * again, and its checkpoint goes. From then on the payout commands write the rows with the events.
 */
describe.each(testBackends())('migration 0025 over payout jobs kept from the feed on $name', (backend) => {
  async function upgrading(test: (db: SqlClient, append: Append) => Promise<void>): Promise<void> {
    const { db, drop } = await backend.open({ migrated: false });
    const store = new PostgresEventStore(db);
    try {
      const all = loadMigrations();
      await migrate(
        db,
        all.filter((m) => m.name < UPGRADE),
      );
      await test(db, async (payoutId, ...events) => {
        const streamId = payoutStreamId(payoutId);
        const { version } = await store.readStream(streamId);
        await store.append([
          appendTo(streamId, PAYOUT_STREAM_TYPE, version, events, PAYOUT_EVENT_SCHEMA_VERSIONS),
        ]);
      });
    } finally {
      await store.close?.();
      await drop();
    }
  }

  type Append = (payoutId: string, ...events: PayoutEvent[]) => Promise<void>;

  async function upgrade(db: SqlClient): Promise<void> {
    const all = loadMigrations();
    expect((await migrate(db, all)).applied).toEqual(all.filter((m) => m.name >= UPGRADE).map((m) => m.name));
    expect(await checkpointedSubscriptions(db)).not.toContain(OLD_SUBSCRIPTION_ID);
  }

  it('applies the events past the subscription’s checkpoint, and only those', async () => {
    await upgrading(async (db, append) => {
      // Applied by the subscription, and worked on by the worker, before the upgrade.
      await append('po_a', created('po_a'), confirmed('po_a', 2));
      await append('po_b', created('po_b'));
      await append('po_d', created('po_d'));
      await append(
        'po_e',
        created('po_e'),
        confirmed('po_e', 2),
        reviewRequired('po_e'),
        approved('po_e'),
        reviewRequired('po_e'),
      );
      await append('po_g', created('po_g'), confirmed('po_g', 2), {
        type: 'PayoutPaid',
        data: { payoutId: 'po_g', receiptReference: 'rcpt_g', paidAt: t(3) },
      });
      await db.query(
        `INSERT INTO payout_jobs (payout_id, account_id, environment, expires_at, accepted_at, confirmed_seq,
           float_reserved, attempts, next_attempt_at, wake_count, finished_at)
         VALUES ('po_a', 'acct_upgrade', 'sandbox', NULL, $1, nextval('payout_jobs_confirmed_seq'), true, 2, $3, 1, NULL),
                ('po_b', 'acct_upgrade', 'sandbox', $2, NULL, NULL, false, 0, NULL, 0, NULL),
                ('po_d', 'acct_upgrade', 'sandbox', $2, NULL, NULL, false, 0, NULL, 0, NULL),
                ('po_e', 'acct_upgrade', 'sandbox', NULL, $1, nextval('payout_jobs_confirmed_seq'), true, 0, $3, 2, NULL),
                ('po_g', 'acct_upgrade', 'sandbox', NULL, $1, nextval('payout_jobs_confirmed_seq'), true, 0, NULL, 1, $4)`,
        [t(2), t(8), t(9), t(3)],
      );
      // The subscription's checkpoint at the last event of the feed.
      const { head } = await new PostgresEventStore(db).feedSnapshot();
      await setCheckpoint(db, OLD_SUBSCRIPTION_ID, head!);
      const before = await jobs(db);

      // Appended after the subscription's last batch, before the new build started.
      await append('po_a', failed('po_a', 4));
      await append('po_b', confirmed('po_b', 4));
      await append('po_c', created('po_c'), {
        type: 'PayoutCancelled',
        data: { payoutId: 'po_c', cancelledAt: t(2) },
      });
      await append('po_d', { type: 'PayoutExpired', data: { payoutId: 'po_d', expiredAt: t(8) } });
      await append('po_e', approved('po_e'), reviewRequired('po_e'), approved('po_e'));
      await append('po_f', created('po_f'));
      await append('po_h', created('po_h'), confirmed('po_h', 4), failed('po_h', 5));
      await upgrade(db);

      const after = await jobs(db);
      expect(after).toEqual({
        // Failed once confirmed: woken for the worker to tidy up at the rail, not finished.
        po_a: { ...before['po_a'], next_attempt_at: null, wake_count: '2' },
        po_b: {
          ...armed,
          expires_at: null,
          accepted_at: t(4),
          confirmed_seq: after['po_b']!.confirmed_seq,
          wake_count: '1',
        },
        po_c: { ...armed, expires_at: null, finished_at: t(2) },
        po_d: { ...armed, expires_at: null, finished_at: t(8) },
        // Two approvals past the checkpoint, the one before it not again.
        po_e: { ...before['po_e'], next_attempt_at: null, wake_count: '4' },
        po_f: armed,
        po_g: before['po_g'],
        po_h: {
          ...armed,
          expires_at: null,
          accepted_at: t(4),
          confirmed_seq: after['po_h']!.confirmed_seq,
          wake_count: '2',
        },
      });
      // The float queue's order: confirmations in feed order, after those already queued.
      const queued = [before['po_a'], before['po_e'], before['po_g'], after['po_b'], after['po_h']].map(
        (job) => BigInt(job!.confirmed_seq!),
      );
      expect([...queued].sort((x, y) => (x < y ? -1 : 1))).toEqual(queued);
    });
  });

  it('builds every payout’s job when the subscription never ran', async () => {
    await upgrading(async (db, append) => {
      await append('po_armed', created('po_armed'));
      await append('po_queued', created('po_queued'), confirmed('po_queued', 2));
      await append('po_expired', created('po_expired'), {
        type: 'PayoutExpired',
        data: { payoutId: 'po_expired', expiredAt: t(8) },
      });
      await upgrade(db);
      const after = await jobs(db);
      expect(after).toEqual({
        po_armed: armed,
        po_expired: { ...armed, expires_at: null, finished_at: t(8) },
        po_queued: {
          ...armed,
          expires_at: null,
          accepted_at: t(2),
          confirmed_seq: after['po_queued']!.confirmed_seq,
          wake_count: '1',
        },
      });
      expect(after['po_queued']!.confirmed_seq).not.toBeNull();
    });
  });
});
