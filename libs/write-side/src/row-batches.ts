import { RowStatement, runRowStatement, SqlQueryable } from '@payouts/database';

// A group commit's rows, gathered per statement: the write side's scheduling. The statement a
// batch runs, and how its rows are sent and answered, is the SQL client's (runRowStatement).
const BATCHES = Symbol('row statement batches');

type Batching = SqlQueryable & { [BATCHES]: RowBatches };

/**
 * Writes one row with `statement`. Through a queryable from `batchingRows`, every row of the
 * same statement written in the same turn of the event loop goes out as one statement; anywhere
 * else the row is a statement of its own. Answers the rows the statement returned for this row.
 */
export function writeRow<Row>(
  db: SqlQueryable,
  statement: RowStatement,
  params: readonly unknown[],
): Promise<Row[]> {
  const batches = (db as Partial<Batching>)[BATCHES];
  if (batches) return batches.add(statement, params) as Promise<Row[]>;
  return runRowStatement(db, statement, [params]).then((answers) => answers[0] as Row[]);
}

/**
 * The same transaction, with the rows its writers write through `writeRow` batched per statement.
 * For the work of a group commit's members, which all reach the same few writes at once: one
 * statement for the group instead of one per member (a server cycle and a socket write each).
 */
export function batchingRows(tx: SqlQueryable): SqlQueryable {
  const batching: Batching = {
    query: (sql, params) => tx.query(sql, params),
    queryPrepared: (sql, params) => tx.queryPrepared(sql, params),
    [BATCHES]: new RowBatches(tx),
  };
  return batching;
}

interface Pending {
  params: readonly unknown[];
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (error: unknown) => void;
}

class RowBatches {
  private readonly waiting = new Map<RowStatement, Pending[]>();

  constructor(private readonly tx: SqlQueryable) {}

  add(statement: RowStatement, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
    return new Promise((resolve, reject) => {
      let rows = this.waiting.get(statement);
      if (!rows) {
        rows = [];
        this.waiting.set(statement, rows);
        // After every promise job of this turn: the writers of a group reach here in a chain of them.
        process.nextTick(() => this.flush(statement));
      }
      rows.push({ params, resolve, reject });
    });
  }

  private flush(statement: RowStatement): void {
    const rows = this.waiting.get(statement) ?? [];
    this.waiting.delete(statement);
    runRowStatement(
      this.tx,
      statement,
      rows.map((row) => row.params),
    ).then(
      (answers) => rows.forEach((row, index) => row.resolve(answers[index] ?? [])),
      (error: unknown) => rows.forEach((row) => row.reject(error)),
    );
  }
}
