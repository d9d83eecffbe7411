import type { SqlQueryable } from '@payouts/database';
import { AuditSetupError } from '../verify/verify-log';
import { ReportDifference } from './replay-differences';
import { LIVE_SCHEMA } from './scratch-schemas';

/**
 * Every column of a read-model table is a value from events (migration 0002: "never from now()"),
 * so every column is compared; none holds a wall-clock write time that a rebuild could not match.
 * A test keeps this true (no read-model column defaults to the clock or a sequence).
 */

interface KeyColumn {
  name: string;
  /** The SQL type, for the cast of a page's lower bound. */
  type: string;
  /** Text keys compare bytewise (COLLATE "C"); the others are integers. */
  text: boolean;
}

/** A live table's columns and primary key, from the catalog: nothing to keep in step by hand. */
export interface TableShape {
  table: string;
  columns: string[];
  key: KeyColumn[];
}

const INTEGER_TYPES = new Set(['smallint', 'integer', 'bigint']);

export async function tableShape(db: SqlQueryable, table: string): Promise<TableShape> {
  const { rows } = await db.query<{
    name: string;
    type: string;
    collatable: boolean;
    key_rank: number | null;
  }>(
    `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type, a.attcollation <> 0 AS collatable,
            array_position(i.indkey::int2[], a.attnum) AS key_rank
       FROM pg_attribute a
       LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
      WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [`${LIVE_SCHEMA}.${table}`],
  );
  if (rows.length === 0) throw new AuditSetupError(`this database has no ${table} table (not migrated?)`);
  const key = rows
    .filter((row) => row.key_rank !== null)
    .sort((a, b) => Number(a.key_rank) - Number(b.key_rank))
    .map((row) => {
      if (!row.collatable && !INTEGER_TYPES.has(row.type)) {
        throw new AuditSetupError(`replay cannot order ${table} by its key column ${row.name} (${row.type})`);
      }
      return { name: row.name, type: row.type, text: row.collatable };
    });
  if (key.length === 0) throw new AuditSetupError(`${table} has no primary key to compare rows by`);
  return { table, columns: rows.map((row) => row.name), key };
}

interface KeyedRow {
  key: string[];
  /** SHA-256 of the row's text: equal rows, equal digests; the columns are read only when they differ. */
  digest: string;
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** The key columns in the order pages walk them (text bytewise). */
export const sortable = (k: KeyColumn) => `${ident(k.name)}${k.text ? ' COLLATE "C"' : ''}`;
/** `$1::type, $2::type…`: a key as parameters. */
export const keyBound = (shape: TableShape) => shape.key.map((k, i) => `$${i + 1}::${k.type}`).join(', ');

/**
 * A table's rows in key order, a page at a time (memory stays one page whatever the table's
 * size), the next page read while this one is merged. Each row comes as its key and a digest,
 * computed by the database, so the rows' values never travel unless they differ.
 */
async function* orderedRows(
  db: SqlQueryable,
  schema: string,
  shape: TableShape,
  pageSize: number,
): AsyncGenerator<KeyedRow> {
  const select = [
    ...shape.key.map((k, i) => `t.${ident(k.name)}::text AS k${i}`),
    `encode(sha256(convert_to(t::text, 'UTF8')), 'hex') AS digest`,
  ].join(', ');
  const from = `FROM ${ident(schema)}.${ident(shape.table)} t`;
  const order = `ORDER BY ${shape.key.map(sortable).join(', ')} LIMIT ${pageSize}`;
  const nextSql = `SELECT ${select} ${from} WHERE (${shape.key.map(sortable).join(', ')}) > (${keyBound(shape)}) ${order}`;
  type Row = Record<string, string>;
  let page: Promise<{ rows: Row[] }> = db.query<Row>(`SELECT ${select} ${from} ${order}`);
  for (;;) {
    const { rows } = await page;
    const last = rows[rows.length - 1];
    const more = rows.length === pageSize && last !== undefined;
    if (more)
      page = db.query<Row>(
        nextSql,
        shape.key.map((_, i) => last[`k${i}`]),
      );
    for (const row of rows) yield { key: shape.key.map((_, i) => row[`k${i}`]!), digest: row.digest! };
    if (!more) return;
  }
}

/** One row's columns as text, by its key. */
async function rowValues(
  db: SqlQueryable,
  schema: string,
  shape: TableShape,
  key: string[],
): Promise<(string | null)[]> {
  const columns = shape.columns.map((c, i) => `${ident(c)}::text AS c${i}`).join(', ');
  const where = `(${shape.key.map((k) => ident(k.name)).join(', ')}) = (${keyBound(shape)})`;
  const { rows } = await db.query<Record<string, string | null>>(
    `SELECT ${columns} FROM ${ident(schema)}.${ident(shape.table)} WHERE ${where}`,
    key,
  );
  return shape.columns.map((_, i) => rows[0]?.[`c${i}`] ?? null);
}

/** The order of ORDER BY above: text by its UTF-8 bytes (collation "C"), integers by value. */
function compareKeys(a: readonly string[], b: readonly string[], key: readonly KeyColumn[]): number {
  for (let i = 0; i < key.length; i += 1) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    if (key[i]!.text) return Buffer.compare(Buffer.from(x), Buffer.from(y));
    return BigInt(x) < BigInt(y) ? -1 : 1;
  }
  return 0;
}

export interface TableComparison {
  rows: number;
  differences: number;
}

/**
 * Both copies of one table read side by side in key order and merged: a key on one side only is
 * a missing or extra row; a key on both with different digests has each column compared as text.
 */
/** The columns of one key whose values differ, each a difference. */
async function reportColumns(
  db: SqlQueryable,
  shape: TableShape,
  schemas: { replay: string; live: string },
  key: string[],
  report: ReportDifference,
): Promise<void> {
  const [replayed, live] = [
    await rowValues(db, schemas.replay, shape, key),
    await rowValues(db, schemas.live, shape, key),
  ];
  shape.columns.forEach((column, i) => {
    const [liveValue, replayedValue] = [live[i] ?? null, replayed[i] ?? null];
    if (liveValue !== replayedValue) {
      report({ kind: 'changed', table: shape.table, key, column, live: liveValue, replayed: replayedValue });
    }
  });
}

export async function compareTable(
  db: SqlQueryable,
  shape: TableShape,
  schemas: { replay: string; live: string },
  options: { pageSize: number; report: ReportDifference; onRows?: (rows: number) => void },
): Promise<TableComparison> {
  const replayed = orderedRows(db, schemas.replay, shape, options.pageSize);
  const live = orderedRows(db, schemas.live, shape, options.pageSize);
  let [r, l] = [await replayed.next(), await live.next()];
  let rows = 0;
  let differences = 0;
  const report: ReportDifference = (difference) => {
    differences += 1;
    options.report(difference);
  };
  while (!r.done || !l.done) {
    const order = r.done ? 1 : l.done ? -1 : compareKeys(r.value.key, l.value.key, shape.key);
    rows += 1;
    if (order < 0 && !r.done) {
      report({ kind: 'missing', table: shape.table, key: r.value.key });
      r = await replayed.next();
    } else if (order > 0 && !l.done) {
      report({ kind: 'extra', table: shape.table, key: l.value.key });
      l = await live.next();
    } else if (!r.done && !l.done) {
      if (r.value.digest !== l.value.digest) await reportColumns(db, shape, schemas, l.value.key, report);
      [r, l] = [await replayed.next(), await live.next()];
    }
    if (options.onRows && rows % options.pageSize === 0) options.onRows(rows);
  }
  return { rows, differences };
}
