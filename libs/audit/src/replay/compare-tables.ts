import type { SqlClient, SqlQueryable } from '@payouts/database';
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
  /** Each column's SQL type with its modifier (`numeric(20,2)`), in the order of `columns`. */
  types: string[];
  key: KeyColumn[];
}

const INTEGER_TYPES = new Set(['smallint', 'integer', 'bigint']);

export async function tableShape(db: SqlQueryable, table: string): Promise<TableShape> {
  const { rows } = await db.query<{
    name: string;
    type: string;
    full_type: string;
    collatable: boolean;
    key_rank: number | null;
  }>(
    `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type,
            format_type(a.atttypid, a.atttypmod) AS full_type, a.attcollation <> 0 AS collatable,
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
  return { table, columns: rows.map((row) => row.name), types: rows.map((row) => row.full_type), key };
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** The key columns in the order pages walk them (text bytewise). */
export const sortable = (k: KeyColumn) => `${ident(k.name)}${k.text ? ' COLLATE "C"' : ''}`;
/** `$1::type, $2::type…`: a key as parameters. */
export const keyBound = (shape: TableShape) => shape.key.map((k, i) => `$${i + 1}::${k.type}`).join(', ');

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

export interface TableComparison {
  rows: number;
  differences: number;
}

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

/**
 * Types whose equality is equality of their text (a difference is a difference of text, as the
 * report shows it): compared as they are, which costs a fraction of writing both rows out as
 * text. numeric only with a fixed scale (1.5 = 1.50 otherwise), and not jsonb (its numbers keep
 * their written scale in its text) nor any type not named here: those are compared as text.
 */
const EQUAL_AS_TEXT =
  /^(text|character varying(\(\d+\))?|smallint|integer|bigint|boolean|uuid|date|numeric\(\d+,\d+\)|timestamp(\(\d\))? with(out)? time zone)$/;

function columnDiffers(shape: TableShape, i: number): string {
  const column = ident(shape.columns[i]!);
  return EQUAL_AS_TEXT.test(shape.types[i]!)
    ? `r.${column} IS DISTINCT FROM l.${column}`
    : `r.${column}::text IS DISTINCT FROM l.${column}::text`;
}

/**
 * The keys where the two copies of a table differ, in key order: one statement, a full join on
 * the key, every other column compared where a key is on both sides. Only differing keys come
 * back; equal rows never leave the database.
 */
function differingKeysSql(shape: TableShape, schemas: { replay: string; live: string }): string {
  const keys = shape.key.map((k) => ident(k.name));
  const on = keys.map((k) => `r.${k} = l.${k}`).join(' AND ');
  const first = keys[0]!;
  const differs = shape.columns
    .map((column, i) => (shape.key.some((k) => k.name === column) ? null : columnDiffers(shape, i)))
    .filter((clause): clause is string => clause !== null);
  const coalesced = (k: KeyColumn) => `coalesce(r.${ident(k.name)}, l.${ident(k.name)})`;
  return `SELECT ${shape.key.map((k, i) => `${coalesced(k)}::text AS k${i}`).join(', ')},
      r.${first} IS NULL AS extra, l.${first} IS NULL AS missing
    FROM ${ident(schemas.replay)}.${ident(shape.table)} r
    FULL JOIN ${ident(schemas.live)}.${ident(shape.table)} l ON ${on}
    WHERE r.${first} IS NULL OR l.${first} IS NULL${differs.map((clause) => ` OR ${clause}`).join('')}
    ORDER BY ${shape.key.map((k) => `${coalesced(k)}${k.text ? ' COLLATE "C"' : ''}`).join(', ')}`;
}

/**
 * Both copies of one table compared in the database (differingKeysSql), the differing keys read
 * through a cursor a page at a time (memory stays one page however many differ): a key on one
 * side only is a missing or extra row; a key on both has each column compared as text.
 */
export async function compareTable(
  db: SqlClient,
  shape: TableShape,
  schemas: { replay: string; live: string },
  options: { pageSize: number; report: ReportDifference },
): Promise<TableComparison> {
  let differences = 0;
  let extra = 0;
  const report: ReportDifference = (difference) => {
    differences += 1;
    options.report(difference);
  };
  const replayed = await db.transaction(async (tx) => {
    await tx.query(`DECLARE differing NO SCROLL CURSOR FOR ${differingKeysSql(shape, schemas)}`);
    for (;;) {
      const { rows } = await tx.query<Record<string, string | boolean>>(
        `FETCH FORWARD ${options.pageSize} FROM differing`,
      );
      for (const row of rows) {
        const key = shape.key.map((_, i) => String(row[`k${i}`]));
        if (row.missing === true) report({ kind: 'missing', table: shape.table, key });
        else if (row.extra === true) {
          extra += 1;
          report({ kind: 'extra', table: shape.table, key });
        } else await reportColumns(tx, shape, schemas, key, report);
      }
      if (rows.length < options.pageSize) break;
    }
    const counted = await tx.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${ident(schemas.replay)}.${ident(shape.table)}`,
    );
    return Number(counted.rows[0]!.n);
  });
  // Every key of either side once: the replay's rows and the live rows it lacks.
  return { rows: replayed + extra, differences };
}
