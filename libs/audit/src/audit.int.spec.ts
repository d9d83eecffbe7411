import type { SqlClient } from '@payouts/database';
import { EventStore, PostgresEventStore } from '@payouts/event-store';
import { testBackends, TestDatabase } from '@payouts/testing';
import { StoredEventTampering } from '../../event-store/src/testing/stored-event-tampering';
import { chainLink, GENESIS_LINK } from './chain/chain-link';
import { chainCheckpoint } from './chain/chain-store';
import { auditFeed } from './feed/audit-feed';
import { Finding } from './verify/findings';
import { verifyLog } from './verify/verify-log';
import { appendHistory, chainEverything, FLOAT, LEDGER } from './testing/audit-history';

async function verified(
  db: SqlClient,
): Promise<{ findings: Finding[]; notYetChained: number; events: number }> {
  const findings: Finding[] = [];
  const report = await verifyLog(db, { onFinding: (f) => findings.push(f), batchSize: 7 });
  return { findings, notYetChained: report.chain.notYetChained, events: report.events };
}

async function links(db: SqlClient): Promise<{ position: string; seq: string; link: string }[]> {
  const { rows } = await db.query<{ position: string; seq: string; link: string }>(
    'SELECT c.global_position::text AS position, c.seq::text AS seq, c.link FROM event_chain c ORDER BY c.seq',
  );
  return rows;
}

async function positionOf(store: EventStore, streamId: string, version: number): Promise<string> {
  const { events } = await store.readStream(streamId, { fromVersion: version, toVersion: version });
  return events[0]!.globalPosition;
}

describe.each(testBackends())('the finance audit on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let tampering: StoredEventTampering;

  beforeEach(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    tampering = new StoredEventTampering(database.db);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('links every event in feed order, and a restarted keeper resumes from its checkpoint', async () => {
    const written = await appendHistory(store);
    await chainEverything(store);
    const first = await links(database.db);
    expect(first).toHaveLength(written);

    // The stored links are the chain recomputed over the feed, from the genesis link.
    let previous = GENESIS_LINK;
    let seq = 0;
    for await (const event of auditFeed(store)) {
      previous = chainLink(previous, event);
      seq += 1;
      expect(first[seq - 1]).toEqual({ position: event.position, seq: String(seq), link: previous });
    }

    await store.append([
      {
        streamId: 'pricing-acc_1-sandbox',
        streamType: 'pricing',
        expectedVersion: 0,
        events: [pricingSet()],
      },
    ]);
    expect((await verified(database.db)).notYetChained).toBe(1);
    await chainEverything(store); // a new keeper: starts from the stored checkpoint, not from zero
    const second = await links(database.db);
    expect(second).toHaveLength(written + 1);
    expect(second.slice(0, written)).toEqual(first);
    expect((await chainCheckpoint(store)).position).toBe(second[written]!.position);
    expect(await verified(database.db)).toEqual({ findings: [], notYetChained: 0, events: written + 1 });
  });

  it('reports an edited, a deleted and an inserted event, each at its position', async () => {
    await appendHistory(store);
    await chainEverything(store);
    const edited = await positionOf(store, LEDGER, 2); // FundsCredited
    const deleted = await positionOf(store, LEDGER, 8); // the last ledger event
    const olderTransaction = (await store.checkpointAt(edited))!.transactionId;
    // What an attacker with the database's superuser would do.
    await tampering.editData(edited, 'reference', 'wire-9');
    await tampering.delete([deleted]);
    await tampering.insert({
      position: '1000',
      transactionId: olderTransaction,
      streamId: 'ledger-acc_9-sandbox',
      streamType: 'ledger',
      streamVersion: 1,
      type: 'FundsCredited',
      schemaVersion: 2,
      data: {
        accountId: 'acc_9',
        environment: 'sandbox',
        amount: '500.00',
        reference: 'x',
        reason: 'x',
        at: '2026-03-01T12:00:00.000Z',
      },
    });

    const { findings } = await verified(database.db);
    expect(findings.map((f) => [f.kind, f.position, f.streamId])).toEqual([
      ['edited', edited, LEDGER],
      ['inserted', '1000', 'ledger-acc_9-sandbox'],
      ['deleted', deleted, LEDGER],
    ]);
  });

  it('puts under an edited or deleted event what it breaks in its stream, a ledger and a payout', async () => {
    await appendHistory(store);
    await chainEverything(store);
    const edited = await positionOf(store, LEDGER, 3); // po_1's reservation, 26.75
    const deleted = await positionOf(store, 'payout-po_1', 2); // PayoutConfirmed
    await tampering.editData(edited, 'total', '500.00');
    await tampering.delete([deleted]);

    const { findings } = await verified(database.db);
    expect(findings).toEqual([
      {
        kind: 'edited',
        position: edited,
        streamId: LEDGER,
        detail: expect.stringMatching(/^PayoutFundsReserved v3 does not hash/),
        // The ledger's versions 4 to 8; order 1042's proceeds are its version 7.
        consequence: {
          streamId: LEDGER,
          uncheckedEvents: 5,
          unpaired: 1,
          finding: {
            kind: 'ledger_invariant',
            position: edited,
            detail: 'Ledger invariant broken: available is -400.00',
          },
        },
      },
      {
        kind: 'deleted',
        position: deleted,
        streamId: 'payout-po_1',
        detail: 'the chain has a link for this position but the event is gone',
        consequence: {
          streamId: 'payout-po_1',
          uncheckedEvents: 1,
          unpaired: 0,
          finding: {
            kind: 'version_gap',
            position: await positionOf(store, 'payout-po_1', 3),
            detail: 'version 3 follows version 1',
          },
        },
      },
    ]);
  });

  it('reads free text with tabs, quotes and newlines exactly, and finds an edit inside it', async () => {
    // Tabs, quotes and newlines in a stream id or a JSON string are read as written, and an edit
    // inside them breaks the chain like any other.
    await appendHistory(store);
    const odd = 'pricing-acc_1\tsandbox "odd"';
    const note = 'tab\there, "quotes", back\\slash,\nnewline, ünïcödé 😀';
    await store.append([
      {
        streamId: odd,
        streamType: 'pricing',
        expectedVersion: 0,
        events: [{ ...pricingSet(), data: { ...pricingSet().data, note }, metadata: { note } }],
      },
    ]);
    await chainEverything(store);
    const clean = await verified(database.db);
    expect(clean.findings).toEqual([]);
    const position = await positionOf(store, odd, 1);

    await tampering.editMetadata(position, 'note', note.replaceAll('\t', ' '));
    const { findings } = await verified(database.db);
    expect(findings.map((f) => [f.kind, f.position, f.streamId])).toEqual([['edited', position, odd]]);
  });

  it('reports each of many events deleted together, across pages of links and at the end of the log', async () => {
    await appendHistory(store);
    await chainEverything(store);
    const positions = (await links(database.db)).map((link) => link.position);
    const gone = [...positions.slice(5, 14), ...positions.slice(-2)];
    await tampering.delete(gone);

    const findings: Finding[] = [];
    await verifyLog(database.db, { onFinding: (f) => findings.push(f), batchSize: 3 });
    const tamper = findings.filter((f) => ['edited', 'deleted', 'inserted', 'link_missing'].includes(f.kind));
    expect(tamper.map((f) => [f.kind, f.position])).toEqual(gone.map((position) => ['deleted', position]));
  });

  it('reports an overdrawing reservation, an illegal transition and a paid order without proceeds', async () => {
    await appendHistory(store);
    // Appended through the store, past every decider: what a bug or a forged write would leave.
    const forged = await store.append([
      {
        streamId: LEDGER,
        streamType: 'ledger',
        expectedVersion: 8,
        events: [
          {
            type: 'PayoutFundsReserved',
            schemaVersion: 1,
            data: {
              payoutId: 'po_9',
              customerKey: 'c',
              amount: '5000.00',
              fee: '0.00',
              total: '5000.00',
              at: AT,
            },
          },
        ],
      },
      PAID_AGAIN,
      {
        streamId: 'order-7',
        streamType: 'order',
        expectedVersion: 0,
        events: [
          { type: 'OrderCreated', schemaVersion: 1, data: { ...orderData(7) } },
          {
            type: 'OrderPaid',
            schemaVersion: 1,
            data: {
              orderId: 7,
              attempt: 1,
              instrument: { kind: 'card', brand: 'visa', last4: '4242' },
              at: AT,
            },
          },
        ],
      },
    ]);
    await chainEverything(store);
    const at = (streamId: string, version: number) =>
      forged.events.find((e) => e.streamId === streamId && e.streamVersion === version)!.globalPosition;

    const { findings } = await verified(database.db);
    expect(findings.map((f) => [f.kind, f.position, f.streamId])).toEqual(
      expect.arrayContaining([
        ['ledger_invariant', at(LEDGER, 9), LEDGER],
        ['illegal_transition', at('payout-po_2', 3), 'payout-po_2'],
        ['paid_order_without_proceeds', at('order-7', 2), 'order-7'],
      ]),
    );
    expect(findings).toHaveLength(3);
    expect(findings[0]!.detail).toMatch(/available is -/);
  });

  it('reports a stream type it cannot check once, and version gaps in the order their streams began to wait', async () => {
    await appendHistory(store);
    // In this feed order: an unknown stream type on two streams (reported once), then version
    // gaps on a payout, an order and a payout again, and an illegal transition on an order and
    // on a payout.
    const one = (streamId: string, streamType: string, count: number) => ({
      streamId,
      streamType,
      expectedVersion: 0,
      events: Array.from({ length: count }, (_, n) => ({
        type: `Forged${n + 1}`,
        schemaVersion: 1,
        data: {},
      })),
    });
    const streams = [
      one('payout-po_unknown', 'coupon', 1),
      one('coupon-1', 'coupon', 1),
      one('payout-po_gap_1', 'payout', 2),
      one('order-88', 'order', 2),
      one('payout-po_gap_2', 'payout', 2),
    ];
    for (const stream of streams) await store.append([stream]);
    await store.append([
      PAID_AGAIN,
      {
        streamId: 'order-89',
        streamType: 'order',
        expectedVersion: 0,
        events: [{ type: 'OrderExpired', schemaVersion: 1, data: { orderId: 89, at: AT } }],
      },
    ]);
    // Each gap's first version goes before the chain keeper links the log: gaps, not tampering.
    await tampering.delete(
      await Promise.all(
        ['payout-po_gap_1', 'order-88', 'payout-po_gap_2'].map((id) => positionOf(store, id, 1)),
      ),
    );
    await chainEverything(store);

    const { findings } = await verified(database.db);
    expect(findings.map((f) => [f.kind, f.streamId])).toEqual([
      ['unchecked_stream_type', 'payout-po_unknown'],
      // One append: the store writes its streams in stream id order.
      ['illegal_transition', 'order-89'],
      ['illegal_transition', 'payout-po_2'],
      ['version_gap', 'payout-po_gap_1'],
      ['version_gap', 'order-88'],
      ['version_gap', 'payout-po_gap_2'],
    ]);
  });

  it("reports a float paid twice and one overdrawn, each the cause of its own stream's later events", async () => {
    await appendHistory(store);
    // The history leaves the sandbox float at 1000.00 topped up, 25.50 paid out: 974.50 available.
    const sandbox = await store.append([
      {
        streamId: FLOAT,
        streamType: 'float',
        expectedVersion: 3,
        events: [
          floatEvent('FloatPaidOut', { payoutId: 'po_1', amount: '25.50' }),
          // Would overdraw: not checked, the float's fold stopped at the event before.
          floatEvent('FloatReserved', { payoutId: 'po_8', amount: '2000.00' }),
        ],
      },
    ]);
    const production = await store.append([
      {
        streamId: 'float-production',
        streamType: 'float',
        expectedVersion: 0,
        events: [
          floatEvent('FloatToppedUp', { amount: '100.00', reference: 'top-up' }, 'production'),
          floatEvent('FloatReserved', { payoutId: 'po_8', amount: '2000.00' }, 'production'),
          floatEvent('FloatReserved', { payoutId: 'po_9', amount: '1.00' }, 'production'),
          floatEvent('FloatReserved', { payoutId: 'po_10', amount: '1.00' }, 'production'),
        ],
      },
    ]);
    await chainEverything(store);

    const { findings } = await verified(database.db);
    expect(findings).toEqual([
      {
        kind: 'illegal_transition',
        position: sandbox.events[0]!.globalPosition,
        streamId: FLOAT,
        detail: 'Cannot apply FloatPaidOut: no open reservation for po_1',
        consequence: { streamId: FLOAT, uncheckedEvents: 1, unpaired: 0 },
      },
      {
        kind: 'float_invariant',
        position: production.events[1]!.globalPosition,
        streamId: 'float-production',
        detail: 'Float invariant broken: available is -1900.00',
        consequence: { streamId: 'float-production', uncheckedEvents: 2, unpaired: 0 },
      },
    ]);
  });

  it("folds a float's amounts as the domain reads them, three decimals included", async () => {
    await appendHistory(store);
    // 974.50 available, as above.
    const forged = await store.append([
      {
        streamId: FLOAT,
        streamType: 'float',
        expectedVersion: 3,
        events: [
          // Three decimals: no decider writes one, but the domain's fold reads it exactly.
          floatEvent('FloatToppedUp', { amount: '5.000', reference: 'top-up' }),
          floatEvent('FloatReserved', { payoutId: 'po_9', amount: '979.50' }),
          floatEvent('FloatReserved', { payoutId: 'po_10', amount: '0.01' }),
        ],
      },
    ]);
    await chainEverything(store);
    const at = (version: number) => forged.events.find((e) => e.streamVersion === version)!.globalPosition;

    const { findings } = await verified(database.db);
    expect(findings.map((f) => [f.kind, f.position, f.streamId, f.detail, f.consequence])).toEqual([
      ['float_invariant', at(6), FLOAT, 'Float invariant broken: available is -0.01', undefined],
    ]);
  });
});

const AT = '2026-03-01T12:00:00.000Z';

function floatEvent(type: string, data: Record<string, string>, environment = 'sandbox') {
  return { type, schemaVersion: 1, data: { environment, ...data, at: AT } };
}

/** A PayoutPaid on po_2, which the history cancelled: an illegal transition. */
const PAID_AGAIN = {
  streamId: 'payout-po_2',
  streamType: 'payout',
  expectedVersion: 2,
  events: [
    { type: 'PayoutPaid', schemaVersion: 1, data: { payoutId: 'po_2', receiptReference: 'r', paidAt: AT } },
  ],
};

function pricingSet() {
  const price = { percent: '2.90', fixed: '0.30' };
  return {
    type: 'AccountPricingSet',
    schemaVersion: 1,
    data: {
      accountId: 'acc_1',
      environment: 'sandbox',
      pricing: { methods: { card: price }, clearingDays: { card: 2 } },
      at: AT,
    },
  };
}

function orderData(orderId: number) {
  return {
    orderId,
    accountId: 'acc_1',
    environment: 'sandbox',
    method: 'card',
    amount: '10.00',
    currency: 'USD',
    customer: 'c',
    product: 'p',
    redirectUrl: null,
    hookUrl: null,
    credentialId: 'cred_1',
    pageTokenHash: 'h',
    createdAt: AT,
    expiresAt: '2026-03-02T12:00:00.000Z',
  };
}
