import { testBackends } from '@payouts/testing';
import { loadMigrations, migrate, splitStatements } from './migrations';
import { PostgresSqlClient } from './postgres-sql-client';

describe.each(testBackends())('migrations on $name', (backend) => {
  it('apply every shipped migration once, and a second run applies none', async () => {
    const { db, drop } = await backend.open({ migrated: false });
    try {
      const first = await migrate(db);
      expect(first.applied).toEqual(loadMigrations().map((m) => m.name));
      const second = await migrate(db);
      expect(second).toEqual({ applied: [], alreadyApplied: first.applied });
    } finally {
      await drop();
    }
  });

  it("leave the create path's text keys comparing byte for byte (migration 0017)", async () => {
    const { db, drop } = await backend.open();
    try {
      const { rows } = await db.query<{ key: string; collation: string }>(
        `SELECT c.relname || '.' || a.attname AS key, coalesce(l.collname, '') AS collation
           FROM pg_attribute a
           JOIN pg_class c ON c.oid = a.attrelid
           LEFT JOIN pg_collation l ON l.oid = a.attcollation
          WHERE c.relname IN ('event_streams', 'events', 'idempotency_keys', 'payout_list', 'payout_balances')
            AND a.attnum > 0 AND NOT a.attisdropped AND a.atttypid = 'text'::regtype
            AND EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND a.attnum = ANY (i.indkey))
          ORDER BY 1`,
      );
      expect(rows.filter((row) => row.collation !== 'C')).toEqual([]);
      expect(rows.map((row) => row.key)).toEqual(
        expect.arrayContaining([
          'event_streams.stream_id',
          'events.stream_id',
          'idempotency_keys.idempotency_key',
          'payout_list.merchant_reference',
          'payout_balances.account_id',
        ]),
      );
    } finally {
      await drop();
    }
  });

  it('refuse to run when an applied migration was edited afterwards', async () => {
    const { db, drop } = await backend.open({ migrated: false });
    try {
      const migrations = loadMigrations();
      await migrate(db, migrations);
      const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: 'edited' } : m));
      await expect(migrate(db, edited)).rejects.toThrow(/was edited after it was applied/);
    } finally {
      await drop();
    }
  });

  if (backend.name === 'postgres') {
    it('apply each migration exactly once when several processes start at the same moment', async () => {
      const { url, drop } = await backend.open({ migrated: false });
      const clients = Array.from(
        { length: 6 },
        () => new PostgresSqlClient({ connectionString: url!, maxConnections: 2 }),
      );
      try {
        const reports = await Promise.all(clients.map((client) => migrate(client)));
        const appliedEverywhere = reports.flatMap((r) => r.applied);
        expect(appliedEverywhere.sort()).toEqual(
          loadMigrations()
            .map((m) => m.name)
            .sort(),
        );
      } finally {
        await Promise.all(clients.map((client) => client.close()));
        await drop();
      }
    });
  }
});

describe('splitting a migration into statements', () => {
  it('keeps dollar-quoted function bodies whole and drops comments', () => {
    const sql = `-- a comment\nCREATE TABLE a (x int);\nCREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  RAISE EXCEPTION 'no';\nEND;\n$$;\n`;
    expect(splitStatements(sql)).toEqual([
      'CREATE TABLE a (x int);',
      "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  RAISE EXCEPTION 'no';\nEND;\n$$;",
    ]);
  });
});
