import { testBackends, TestDatabase } from '@payouts/testing';
import { readPayoutView } from './payout-view.query';
import { createReadModelClient, ReadModelClient } from './read-model-client';
import { toPayoutMerchantView } from './payout-views';

/** Get Payout reads with its own SQL; it must answer exactly what the Prisma row's view answers. */
describe.each(testBackends())('readPayoutView on $name', (backend) => {
  let database: TestDatabase;
  let prisma: ReadModelClient;

  beforeAll(async () => {
    database = await backend.open();
    prisma = createReadModelClient(database.db);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  const base = {
    accountId: 'acct_view',
    environment: 'sandbox',
    streamVersion: 3,
    status: 'processing',
    statusVersion: 2,
    amount: '1234567.80',
    fee: '0.05',
    totalReserved: '1234567.85',
    currency: 'USD',
    fundsReleased: false,
    merchantReference: 'ref-ü-1',
    delivery: 'link',
    source: 'api',
    createdAt: new Date('2026-01-02T03:04:05.006Z'),
    payoutExpiresAt: new Date('2026-01-09T03:04:05.006Z'),
    updatedAt: new Date('2026-01-02T03:04:06.999Z'),
  };

  it.each([
    [
      'every optional field set',
      {
        payoutId: 'po_view_full',
        customerId: 'cus_1',
        caseReference: 'case 1',
        selectedMethod: 'bank_transfer',
        safeReason: 'awaiting_float',
        receiptReference: 'rcpt_1',
        acceptedAt: new Date('2026-01-02T03:04:06.000Z'),
      },
    ],
    [
      'every optional field null',
      {
        payoutId: 'po_view_nulls',
        customerId: null,
        caseReference: null,
        selectedMethod: null,
        safeReason: null,
        receiptReference: null,
        acceptedAt: null,
      },
    ],
  ])('matches the Prisma view with %s', async (_name, fields) => {
    const row = await prisma.payoutListEntry.create({ data: { ...base, ...fields } });
    const view = await readPayoutView(database.db, base.accountId, 'sandbox', fields.payoutId);
    expect(view).toEqual(toPayoutMerchantView(row));
    expect(JSON.stringify(view)).toBe(JSON.stringify(toPayoutMerchantView(row)));
  });

  it('finds nothing for another account or environment', async () => {
    await prisma.payoutListEntry.create({ data: { ...base, payoutId: 'po_view_scoped' } });
    expect(await readPayoutView(database.db, 'acct_other', 'sandbox', 'po_view_scoped')).toBeNull();
    expect(await readPayoutView(database.db, base.accountId, 'production', 'po_view_scoped')).toBeNull();
    expect(await readPayoutView(database.db, base.accountId, 'sandbox', 'po_missing')).toBeNull();
  });
});
