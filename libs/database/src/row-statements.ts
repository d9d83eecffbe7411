import type { SqlQueryable } from './sql-client';

/**
 * A statement about one row (a write, or a look-up with BatchedLookUps), run for many: every
 * parameter is an array with one element per row (read through `unnest`). Run alone, a row is the
 * same SQL with one-element arrays, so there is one statement to test whether one caller or many
 * use it. Gathering the rows of many callers into one run is the caller's scheduling (the write
 * side's row batches and grouped writes, the look-ups of one turn); this is only the SQL.
 */
export interface RowStatement {
  readonly sql: string;
  /**
   * For a statement that returns rows: which returned row answers which writer (a row's key, and
   * the key of a writer's parameters). Without it, writers are answered no rows.
   */
  readonly answers?: {
    rowKey: (row: Record<string, unknown>) => string;
    paramsKey: (params: readonly unknown[]) => string;
  };
  /**
   * Columns of JSON texts (by position), sent as one JSON array rather than a text[]: a text[]
   * literal escapes every quote of every element (pg's escapeElement, about 5% of the gateway's
   * CPU per Create Payout for the stored answers), a JSON array of JSON texts needs no escaping.
   * Each row's element is a one-element array, `[text]`, or `[]` for null; the SQL reads the
   * column with `ROWS FROM (…, jsonb_array_elements($k::jsonb))` and the value as `element -> 0`
   * (SQL NULL for `[]`, so a JSON null and a missing value stay apart). A value must be valid JSON.
   */
  readonly jsonColumns?: readonly number[];
}

/** One statement for all the rows; each row's answer, in the order given. */
export async function runRowStatement(
  db: SqlQueryable,
  statement: RowStatement,
  rows: readonly (readonly unknown[])[],
): Promise<Record<string, unknown>[][]> {
  const width = rows[0]?.length ?? 0;
  const columns = Array.from({ length: width }, (_, column) =>
    statement.jsonColumns?.includes(column)
      ? jsonElementsOf(rows, column)
      : rows.map((row) => {
          const value = row[column];
          return value === null || value === undefined ? null : String(value);
        }),
  );
  const result = await db.queryPrepared<Record<string, unknown>>(statement.sql, columns);
  const answers = statement.answers;
  if (!answers) return rows.map(() => []);
  const byKey = new Map<string, Record<string, unknown>[]>();
  for (const row of result.rows) {
    const key = answers.rowKey(row);
    const answered = byKey.get(key);
    if (answered) answered.push(row);
    else byKey.set(key, [row]);
  }
  return rows.map((row) => byKey.get(answers.paramsKey(row)) ?? []);
}

/** A JSON column's values as one JSON array of one-element arrays (see RowStatement.jsonColumns). */
function jsonElementsOf(rows: readonly (readonly unknown[])[], column: number): string {
  let json = '[';
  for (let i = 0; i < rows.length; i += 1) {
    const value = rows[i]![column];
    json += `${i === 0 ? '' : ','}${value === null || value === undefined ? '[]' : `[${String(value)}]`}`;
  }
  return `${json}]`;
}
