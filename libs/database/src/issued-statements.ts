import type { SqlQueryable } from './sql-client';

/**
 * The statements a transaction's work issued. Work may issue several before awaiting any (on a
 * server they are pipelined), so a failure can sit in one nobody awaited; PostgreSQL then answers
 * COMMIT with a silent ROLLBACK. The transaction checks them all before it commits.
 */
export class IssuedStatements {
  private readonly statements: Promise<unknown>[] = [];
  private ended = false;

  track<T>(statement: Promise<T>): Promise<T> {
    // Checked in allSucceeded or settled; the work may never await it itself.
    statement.catch(() => undefined);
    this.statements.push(statement);
    return statement;
  }

  /**
   * The same queryable, with every statement it runs tracked here, and refused once the
   * transaction has ended: work still running after its transaction failed (a branch that had not
   * reached its next statement yet) must not run that statement on the connection outside it,
   * where it would commit on its own or inside whoever uses the connection next.
   */
  tracking(queryable: SqlQueryable): SqlQueryable {
    const refuseAfterEnd = <T>(send: () => Promise<T>): Promise<T> =>
      this.ended ? Promise.reject(new TransactionEndedError()) : this.track(send());
    return {
      query: <Row>(sql: string, params?: readonly unknown[]) =>
        refuseAfterEnd(() => queryable.query<Row>(sql, params)),
      queryPrepared: <Row>(sql: string, params?: readonly unknown[]) =>
        refuseAfterEnd(() => queryable.queryPrepared<Row>(sql, params)),
    };
  }

  /** From now on the tracked queryable refuses every statement: COMMIT or ROLLBACK was sent. */
  end(): void {
    this.ended = true;
  }

  /** Resolves once every statement succeeded; otherwise throws the first failure in issue order. */
  async allSucceeded(): Promise<void> {
    await settledInOrder(this.statements);
  }

  /** Waits for every statement to finish, however it ends (before a ROLLBACK). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.statements);
  }
}

/**
 * Waits for every promise, then throws the first failure in the order given, or returns every
 * value. For statements issued together: they ran in that order, so the first failure is the cause
 * and the later ones ("current transaction is aborted") are its consequences.
 */
export async function settledInOrder<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

/** A statement issued through a transaction that had already committed or rolled back. */
export class TransactionEndedError extends Error {
  constructor() {
    super('statement refused: its transaction has already ended');
    this.name = 'TransactionEndedError';
  }
}
