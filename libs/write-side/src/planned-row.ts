import type { RowStatement, SqlQueryable } from '@payouts/database';
import { writeRow } from './row-batches';

/**
 * One row a command's plan writes beside its events, as data: the statement (a RowStatement,
 * batched with the same statement of other plans in a group commit, or plain SQL), its
 * parameters, and the refusal to raise, rolling the whole commit back, when the statement
 * returns no row (a key another request took, details changed since they were read). It is the
 * write plan's data (WritePlan.rows), so it lives with the plan; only the statement it names is
 * the SQL client's (libs/database).
 */
export interface PlannedRow {
  readonly statement: RowStatement | string;
  readonly params: readonly unknown[];
  readonly whenNoRow?: () => Error;
}

/** Writes one planned row inside the commit's transaction. */
export async function writePlannedRow(tx: SqlQueryable, row: PlannedRow): Promise<void> {
  const returned =
    typeof row.statement === 'string'
      ? (await tx.query(row.statement, row.params)).rows
      : await writeRow(tx, row.statement, row.params);
  if (returned.length === 0 && row.whenNoRow) throw row.whenNoRow();
}
