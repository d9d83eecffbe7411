import { PostgresEventStore } from '@payouts/event-store';
import { READ_MODEL_TABLES } from '@payouts/read-models';
import { appendLedger, fundsFlowEvents, testBackends, TestDatabase } from '@payouts/testing';
import { appendHistory, projectEverything } from '../testing/audit-history';
import { compareTable, ident, tableShape, TableShape } from './compare-tables';
import { ReplayDifference } from './replay-differences';

const SCHEMAS = { replay: 'cmp_replay', live: 'cmp_live' };

describe.each(testBackends())('compareTable on $name', (backend) => {
  let database: TestDatabase;
  let shapes: TableShape[];

  beforeAll(async () => {
    database = await backend.open();
    const store = new PostgresEventStore(database.db);
    await appendHistory(store);
    await appendLedger(store, 'acc_flow', fundsFlowEvents('acc_flow'));
    await projectEverything(store);
    await store.close();
    shapes = await Promise.all(READ_MODEL_TABLES.map((table) => tableShape(database.db, table)));
    for (const schema of [SCHEMAS.replay, SCHEMAS.live]) {
      await database.db.query(`CREATE SCHEMA ${schema}`);
      for (const table of READ_MODEL_TABLES) {
        await database.db.query(`CREATE TABLE ${schema}.${table} (LIKE public.${table} INCLUDING ALL)`);
        await database.db.query(`INSERT INTO ${schema}.${table} SELECT * FROM public.${table}`);
      }
    }
  });
  afterAll(async () => {
    await database.drop();
  });

  const compared = async (shape: TableShape) => {
    const found: ReplayDifference[] = [];
    const result = await compareTable(database.db, shape, SCHEMAS, {
      pageSize: 2,
      report: (difference) => found.push(difference),
    });
    return { ...result, found };
  };

  it('finds equal copies equal and counts every row once', async () => {
    for (const shape of shapes) {
      const { rows } = await database.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM public.${shape.table}`,
      );
      expect(await compared(shape)).toEqual({ rows: Number(rows[0]!.n), differences: 0, found: [] });
    }
  });

  it('sees a change in any column of any table, whatever its type, as that column changed', async () => {
    let checked = 0;
    for (const shape of shapes) {
      const keys = shape.key.map((k) => ident(k.name));
      for (const column of shape.columns.filter((c) => !shape.key.some((k) => k.name === c))) {
        const c = ident(column);
        // Another row's value (it passes the table's checks), else NULL where allowed.
        const { rows } = await database.db.query<Record<string, string>>(
          `SELECT ${keys.map((k, i) => `t.${k}::text AS k${i}`).join(', ')}
             FROM ${SCHEMAS.live}.${shape.table} t
            WHERE EXISTS (SELECT 1 FROM ${SCHEMAS.live}.${shape.table} o WHERE o.${c}::text IS DISTINCT FROM t.${c}::text)
            ORDER BY 1 LIMIT 1`,
        );
        if (rows.length === 0) continue; // one value in the whole table: nothing to change it to
        const key = shape.key.map((_, i) => rows[0]![`k${i}`]!);
        const where = keys.map((k, i) => `${k}::text = $${i + 1}`).join(' AND ');
        const restore = `UPDATE ${SCHEMAS.live}.${shape.table} t SET ${c} = r.${c}
             FROM ${SCHEMAS.replay}.${shape.table} r WHERE ${keys.map((k) => `t.${k} = r.${k}`).join(' AND ')}`;
        await database.db.query(
          `UPDATE ${SCHEMAS.live}.${shape.table} SET ${c} = (SELECT o.${c} FROM ${SCHEMAS.live}.${shape.table} o
              WHERE o.${c}::text IS DISTINCT FROM (SELECT ${c}::text FROM ${SCHEMAS.live}.${shape.table} WHERE ${where})
              ORDER BY 1 LIMIT 1)
            WHERE ${where}`,
          key,
        );
        try {
          const { found } = await compared(shape);
          expect(found).toEqual([
            expect.objectContaining({ kind: 'changed', table: shape.table, key, column }),
          ]);
        } finally {
          await database.db.query(restore);
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('names rows on one side only, in key order with the changed ones, over several pages', async () => {
    const shape = shapes.find((s) => s.table === 'balance_transactions')!;
    const { rows } = await database.db.query<{ id: string }>(
      `SELECT id FROM ${SCHEMAS.live}.balance_transactions ORDER BY id COLLATE "C"`,
    );
    const ids = rows.map((row) => row.id);
    expect(ids.length).toBeGreaterThan(5);
    await database.db.query(`DELETE FROM ${SCHEMAS.live}.balance_transactions WHERE id = $1`, [ids[1]]);
    await database.db.query(`DELETE FROM ${SCHEMAS.replay}.balance_transactions WHERE id = $1`, [ids[3]]);
    await database.db.query(
      `UPDATE ${SCHEMAS.live}.balance_transactions SET description = description || ' (edited)' WHERE id = $1`,
      [ids[4]],
    );
    const { rows: count, found, differences } = await compared(shape);
    expect(found).toEqual([
      { kind: 'missing', table: 'balance_transactions', key: [ids[1]] },
      { kind: 'extra', table: 'balance_transactions', key: [ids[3]] },
      expect.objectContaining({ kind: 'changed', key: [ids[4]], column: 'description' }),
    ]);
    expect({ count, differences }).toEqual({ count: ids.length, differences: 3 });
  });
});
