/**
 * The one seam between our code and a PostgreSQL-compatible database. The event store, the
 * projections and the migration runner are written against it, so the same SQL runs on the
 * embedded PGlite database and on a PostgreSQL server.
 */
export interface SqlResult<Row> {
  rows: Row[];
  /** Rows inserted, updated or deleted by the statement (0 for a plain SELECT on PGlite). */
  rowCount: number;
}

export interface SqlQueryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
  /**
   * A fixed statement that runs very often (the hot paths: appends, inline projections, idempotency):
   * on a server it is parsed and planned once per connection (a named prepared statement); PGlite
   * plans in-process and runs it as a plain query. Only for constant SQL text, never built from input.
   */
  queryPrepared<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>>;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface SqlClient extends SqlQueryable {
  readonly kind: DatabaseKind;
  /**
   * For the hottest look-ups, and only for plain SELECTs that never wait on a lock (no writes, no
   * FOR UPDATE): on a server they share a few pipelined connections, so a statement that waited
   * would hold up every one queued behind it. PGlite runs them like any other.
   */
  readonly reads: SqlQueryable;
  /** Runs `work` in one transaction on one connection; commits if it resolves, rolls back if it throws. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** SQLSTATE codes we act on. */
export const SqlState = {
  uniqueViolation: '23505',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;

export function sqlStateOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
