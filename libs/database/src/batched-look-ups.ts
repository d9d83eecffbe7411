import { RowStatement, runRowStatement } from './row-statements';
import type { SqlQueryable } from './sql-client';
import { atTurnEnd } from './turn-end';

type Answers = NonNullable<RowStatement['answers']>;

interface Waiting {
  params: readonly unknown[];
  callers: { resolve: (rows: Record<string, unknown>[]) => void; reject: (error: unknown) => void }[];
}

/**
 * The look-ups of one row statement (a read, see RowStatement) that concurrent requests make, sent
 * as one statement per turn of the event loop. Each request arrives in an I/O callback of its own,
 * so the look-ups of every request read in one turn are gathered until the turn's I/O is done
 * (atTurnEnd): one statement, one socket write and one server cycle where each request had its
 * own. A look-up waits at most the rest of that turn, so it still reads what was committed before
 * its request arrived. Look-ups with the same parameters share a row; a failed statement fails
 * every look-up in it.
 *
 * It stays in the SQL client, beside the shared read connections, because it is timed with them:
 * its statement is issued from the same turn-end queue that uncorks their socket, so it is
 * written in the turn its look-ups came in, not a turn later. Its callers are reads (credentials,
 * Get Payout), which the write side's grouping does not serve.
 */
export class BatchedLookUps<Row> {
  private waiting = new Map<string, Waiting>();
  private scheduled = false;
  private readonly statement: RowStatement & { answers: Answers };

  constructor(
    private readonly db: SqlQueryable,
    statement: RowStatement,
  ) {
    if (!statement.answers) throw new Error('a look-up statement must say which row answers which look-up');
    this.statement = { sql: statement.sql, answers: statement.answers };
  }

  /** The rows the statement returned for `params`. */
  lookUp(params: readonly unknown[]): Promise<Row[]> {
    return new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const key = this.statement.answers.paramsKey(params);
      let entry = this.waiting.get(key);
      if (!entry) {
        entry = { params, callers: [] };
        this.waiting.set(key, entry);
      }
      entry.callers.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        atTurnEnd(() => this.flush());
      }
    }) as Promise<Row[]>;
  }

  private flush(): void {
    const entries = [...this.waiting.values()];
    this.waiting = new Map();
    this.scheduled = false;
    runRowStatement(
      this.db,
      this.statement,
      entries.map((entry) => entry.params),
    ).then(
      (answers) =>
        entries.forEach((entry, index) => entry.callers.forEach((caller) => caller.resolve(answers[index]!))),
      (error: unknown) => entries.forEach((entry) => entry.callers.forEach((caller) => caller.reject(error))),
    );
  }
}
