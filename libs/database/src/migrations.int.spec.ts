import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it("take a reworded comment, refuse a changed statement, and take a database's earlier whole-text checksum", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    const write = (sql: string) => {
      mkdirSync(join(dir, '0001_notes'), { recursive: true });
      writeFileSync(join(dir, '0001_notes', 'migration.sql'), sql);
      return loadMigrations(dir);
    };
    const { db, drop } = await backend.open({ migrated: false });
    try {
      const first = '-- Notes (see elsewhere).\nCREATE TABLE notes (id integer);\n';
      await migrate(db, write(first));
      // As every database migrated before checksums left comments out recorded it: the whole text.
      await db.query('UPDATE schema_migrations SET checksum = $1', [
        createHash('sha256').update(first).digest('hex'),
      ]);
      const same = write(first);
      expect(await migrate(db, same)).toEqual({ applied: [], alreadyApplied: ['0001_notes'] });
      const recorded = await db.query<{ checksum: string }>('SELECT checksum FROM schema_migrations');
      expect(recorded.rows[0]!.checksum).toBe(same[0]!.checksum);
      const reworded = write('-- Notes (docs/design.md).\n\nCREATE TABLE notes (id integer);\n');
      expect(await migrate(db, reworded)).toEqual({ applied: [], alreadyApplied: ['0001_notes'] });
      await expect(migrate(db, write('-- Notes.\nCREATE TABLE notes (id bigint);\n'))).rejects.toThrow(
        /was edited after it was applied/,
      );
    } finally {
      await drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('take a shipped migration applied before its comments were reworded, under its checksum of then', async () => {
    const { db, drop } = await backend.open({ migrated: false });
    try {
      await migrate(db);
      // 0021's whole text as it was applied before its comments cited docs/design.md.
      await db.query('UPDATE schema_migrations SET checksum = $1 WHERE name = $2', [
        '5a2c90bf02d8245abcb94ddf36775867d461a737328ebc5070c2b3444c656969',
        '0021_funds_flow',
      ]);
      const again = await migrate(db);
      expect(again.applied).toEqual([]);
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
