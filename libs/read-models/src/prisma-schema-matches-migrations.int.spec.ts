import { join } from 'node:path';
import { testBackends, TestDatabase } from '@payouts/testing';
import { createReadModelClient, ReadModelClient } from './read-model-client';
import { PrismaModel, readPrismaModels } from './prisma-schema-file';

const models = readPrismaModels(join(__dirname, '../../../prisma/schema.prisma'));

const SQL_TYPE_OF: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  Decimal: 'numeric',
  DateTime: 'timestamp with time zone',
};

interface ColumnRow {
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  numeric_precision: number | null;
  numeric_scale: number | null;
  datetime_precision: number | null;
}

describe.each(testBackends())('the Prisma schema on $name', (backend) => {
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

  it('describes exactly the read-model tables', () => {
    expect(models.map((m) => m.table).sort()).toEqual([
      'balance_transactions',
      'payout_balances',
      'payout_list',
      'settlements',
    ]);
  });

  it.each(models.map((m) => [m.name, m] as [string, PrismaModel]))(
    'model %s has the same columns, types, nullability, keys and indexes as the migrated table',
    async (_name, model) => {
      const columns = await database.db.query<ColumnRow>(
        `SELECT column_name, data_type, is_nullable, numeric_precision, numeric_scale, datetime_precision
           FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [model.table],
      );
      const byName = new Map(columns.rows.map((c) => [c.column_name, c]));
      expect([...byName.keys()].sort()).toEqual(model.fields.map((f) => f.column).sort());

      for (const field of model.fields) {
        const column = byName.get(field.column)!;
        expect({ field: field.name, type: column.data_type }).toEqual({
          field: field.name,
          type: SQL_TYPE_OF[field.type],
        });
        expect({ field: field.name, nullable: column.is_nullable === 'YES' }).toEqual({
          field: field.name,
          nullable: field.optional,
        });
        const decimal = /^Decimal\((\d+),\s*(\d+)\)$/.exec(field.nativeType ?? '');
        if (decimal) {
          expect([field.name, column.numeric_precision, column.numeric_scale]).toEqual([
            field.name,
            Number(decimal[1]),
            Number(decimal[2]),
          ]);
        }
        const timestamp = /^Timestamptz\((\d+)\)$/.exec(field.nativeType ?? '');
        if (timestamp)
          expect([field.name, column.datetime_precision]).toEqual([field.name, Number(timestamp[1])]);
      }

      const primaryKey = await database.db.query<{ column_name: string }>(
        `SELECT a.attname AS column_name FROM pg_index i
           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
          WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
        [model.table],
      );
      expect(primaryKey.rows.map((r) => r.column_name)).toEqual(model.primaryKey);

      const indexes = await database.db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT LIKE '%_pkey'`,
        [model.table],
      );
      const actual = indexes.rows
        .map((row) => ({
          name: row.indexname,
          columns: (/\((.*)\)$/.exec(row.indexdef)?.[1] ?? '').split(',').map((c) => c.trim().split(' ')[0]),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect(actual).toEqual([...model.indexes].sort((a, b) => a.name.localeCompare(b.name)));
    },
  );

  it('writes and reads every field of the models through Prisma', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const payout = {
      payoutId: 'po_schema_check',
      accountId: 'acct_1',
      environment: 'sandbox',
      streamVersion: 2,
      status: 'processing',
      statusVersion: 2,
      amount: '12.34',
      fee: '0.50',
      totalReserved: '12.84',
      currency: 'USD',
      fundsReleased: false,
      merchantReference: 'ref-1',
      customerId: 'cust-1',
      delivery: 'redirect',
      source: 'api',
      caseReference: 'case-1',
      selectedMethod: 'bank_transfer',
      safeReason: 'awaiting_float',
      receiptReference: null,
      createdAt: at,
      acceptedAt: at,
      payoutExpiresAt: at,
      updatedAt: at,
    };
    await prisma.payoutListEntry.create({ data: payout });
    const read = await prisma.payoutListEntry.findUniqueOrThrow({ where: { payoutId: payout.payoutId } });
    expect({
      ...read,
      amount: read.amount.toFixed(2),
      fee: read.fee.toFixed(2),
      totalReserved: read.totalReserved.toFixed(2),
    }).toEqual(payout);

    const balance = await prisma.payoutBalance.create({ data: balanceFields(at) });
    expect(balance.available.toFixed(2)).toBe('87.16');
    expect(balance.maxPendingPerCustomer).toBe(3);
    // The new figures default to zero, and another currency of the same ledger owner is its own row.
    expect(balance.pending.toFixed(2)).toBe('0.00');
    const euro = await prisma.payoutBalance.create({
      data: { ...balanceFields(at), currency: 'EUR', pending: '4.85', grossProceeds: '5.00' },
    });
    expect([euro.currency, euro.pending.toFixed(2), euro.processingFees.toFixed(2)]).toEqual([
      'EUR',
      '4.85',
      '0.00',
    ]);

    const transaction = await prisma.balanceTransaction.create({
      data: {
        id: 'txn_0123456789abcdef01234567',
        accountId: 'acct_1',
        environment: 'production',
        currency: 'USD',
        ledgerVersion: 4,
        eventRow: 0,
        type: 'payment',
        amount: '5.00',
        fee: '0.00',
        net: '5.00',
        status: 'pending',
        availableOn: at,
        orderId: 1000001n,
        payoutId: null,
        settlementId: null,
        description: 'Order 1000001',
        runningPending: '5.00',
        runningAvailable: '87.16',
        runningCustomerPayoutHolds: '12.84',
        runningMerchantSettlementHolds: '0.00',
        includedInSettlement: null,
        createdAt: at,
      },
    });
    expect([transaction.orderId, transaction.net.toFixed(2)]).toEqual([1000001n, '5.00']);
    const settlement = await prisma.settlement.create({
      data: {
        id: 'stl_0123456789abcdef01234567',
        accountId: 'acct_1',
        environment: 'production',
        currency: 'USD',
        ledgerVersion: 5,
        amount: '80.00',
        status: 'failed',
        failureReason: 'bank account closed',
        trigger: 'daily',
        retainedTarget: '7.16',
        createdAt: at,
        paidAt: null,
        failedAt: at,
      },
    });
    expect([settlement.status, settlement.failureReason]).toEqual(['failed', 'bank account closed']);
  });
});

/** A payout_balances row as the schema test writes it (the original fields; the new ones default). */
function balanceFields(at: Date) {
  return {
    accountId: 'acct_1',
    environment: 'production',
    ledgerVersion: 3,
    currency: 'USD',
    fundsIn: '100.00',
    available: '87.16',
    customerPayoutHolds: '12.84',
    customerPayoutsSettled: '0.00',
    merchantSettlementHolds: '0.00',
    retainedTarget: '0.00',
    feePerPayout: '0.50',
    minPayout: '1.00',
    maxPayout: '500.00',
    maxOpenExposure: '1000.00',
    maxPendingPerCustomer: 3,
    updatedAt: at,
  };
}
