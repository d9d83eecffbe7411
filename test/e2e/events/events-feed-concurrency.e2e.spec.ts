import { createServerDatabase, testBackends } from '@payouts/testing';
import { linkBody, merchant, newKey } from '../api/gateway-harness';
import type { Merchant } from '../api/gateway-harness';
import { startWorkerGateway } from '../worker/worker-harness';
import type { Storage, WorkerGateway } from '../worker/worker-harness';

interface FeedEvent {
  id: string;
  type: string;
  data: { payout_id?: string };
}

const WRITERS = 4;
const PAYOUTS_PER_WRITER = 15;

/**
 * Paging through GET /api/events while payouts are created and cancelled at the same time, from
 * several concurrent writers: the reader, following `next_after` with small pages, ends with
 * exactly the feed as one read gives it afterwards, in the same order: no event skipped, none
 * twice. On the PostgreSQL server the writers' transactions really overlap and commit out of
 * order.
 */
describe.each(testBackends().map((b) => b.name))(
  'the events feed under concurrent writes on %s',
  (backend) => {
    let gateway: WorkerGateway;
    let drop: () => Promise<void> = async () => undefined;
    let shop: Merchant;

    beforeAll(async () => {
      let storage: Storage = { dataDir: ':memory:' };
      if (backend === 'postgres') {
        const server = await createServerDatabase();
        storage = { databaseUrl: server.url };
        drop = server.drop;
      }
      gateway = await startWorkerGateway(storage);
      shop = await merchant(gateway.call, '5000.00');
    }, 60_000);
    afterAll(async () => {
      await gateway.close();
      await drop();
    });

    const page = async (after: string | null, limit: number) => {
      const answer = await gateway.call(
        'GET',
        `/sandbox/api/events?limit=${limit}${after ? `&after=${after}` : ''}`,
        {
          token: shop.token,
        },
      );
      expect(answer.status).toBe(200);
      return answer.body as { data: FeedEvent[]; has_more: boolean; next_after: string | null };
    };

    async function writer(name: string): Promise<void> {
      for (let i = 0; i < PAYOUTS_PER_WRITER; i += 1) {
        const created = await gateway.call('POST', '/sandbox/api/payout/create', {
          token: shop.token,
          key: newKey(),
          body: linkBody(`${name}-${i}`, '1.00'),
        });
        expect(created.status).toBe(201);
        if (i % 3 === 0) {
          const cancelled = await gateway.call(
            'POST',
            `/sandbox/api/payout/${created.body.payout_id}/cancel`,
            {
              token: shop.token,
              key: newKey(),
            },
          );
          expect(cancelled.status).toBe(200);
        }
      }
    }

    it('never skips or repeats an event while the feed grows', async () => {
      let writing = true;
      const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(`w${w}`))).finally(() => {
        writing = false;
      });
      const walked: FeedEvent[] = [];
      let after: string | null = null;
      let pages = 0;
      // Follows the feed while it is written, then until it holds every write.
      for (;;) {
        const done = !writing;
        const next = await page(after, 7);
        pages += 1;
        walked.push(...next.data);
        after = next.next_after;
        if (done && !next.has_more) {
          const payouts = new Set(
            walked.filter((e) => e.type === 'payout.created').map((e) => e.data.payout_id),
          );
          if (payouts.size === WRITERS * PAYOUTS_PER_WRITER) break;
        }
        if (next.data.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await writers;

      const whole: FeedEvent[] = [];
      let cursor: string | null = null;
      for (;;) {
        const next = await page(cursor, 200);
        whole.push(...next.data);
        cursor = next.next_after;
        if (!next.has_more) break;
      }
      const created = WRITERS * PAYOUTS_PER_WRITER;
      const cancelled = WRITERS * Math.ceil(PAYOUTS_PER_WRITER / 3);
      // The credit, and for each payout its creation and reservation, for each cancel its update and release.
      expect(whole).toHaveLength(1 + 2 * created + 2 * cancelled);
      expect(new Set(whole.map((e) => e.id)).size).toBe(whole.length);
      expect(walked.map((e) => e.id)).toEqual(whole.map((e) => e.id));
      expect(walked).toEqual(whole);
      expect(pages).toBeGreaterThan(whole.length / 7);
    }, 120_000);
  },
);
