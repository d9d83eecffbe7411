/**
 * The statements a transaction's work issued. Work may issue several before awaiting any (on a
 * server they are pipelined), so a failure can sit in one nobody awaited; PostgreSQL then answers
 * COMMIT with a silent ROLLBACK. The transaction checks them all before it commits.
 */
export class IssuedStatements {
  private readonly statements: Promise<unknown>[] = [];

  track<T>(statement: Promise<T>): Promise<T> {
    // Checked in allSucceeded or settled; the work may never await it itself.
    statement.catch(() => undefined);
    this.statements.push(statement);
    return statement;
  }

  /**
   * Resolves once every statement succeeded; otherwise throws the first failure in issue order.
   * They ran in that order, so it is the cause, and the later "transaction is aborted" failures
   * are its consequences.
   */
  async allSucceeded(): Promise<void> {
    for (const statement of this.statements) await statement;
  }

  /** Waits for every statement to finish, however it ends (before a ROLLBACK). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.statements);
  }
}
