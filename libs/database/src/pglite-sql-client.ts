import { PGlite } from '@electric-sql/pglite';
import { IssuedStatements } from './issued-statements';
import { SqlClient, SqlQueryable, SqlResult } from './sql-client';

/**
 * Embedded PostgreSQL (PGlite, WebAssembly) in this process. It has one connection, so
 * transactions are serialised by PGlite itself; everything that touches the embedded database
 * must go through this client (or the same PGlite instance) to avoid waiting on itself.
 */
export class PgliteSqlClient implements SqlClient {
  readonly kind = 'pglite' as const;

  /** One connection: the hot reads run on it like everything else. */
  readonly reads: SqlQueryable = {
    query: (sql, params) => this.query(sql, params),
    queryPrepared: (sql, params) => this.query(sql, params),
  };

  private constructor(readonly db: PGlite) {}

  /**
   * `dataDir` undefined keeps the database in memory (tests). `from` starts it as a copy of a
   * `dump()` instead of an empty cluster: initdb is most of what opening costs (about 2 s of 3).
   */
  static async open(dataDir?: string, options: { from?: Blob } = {}): Promise<PgliteSqlClient> {
    const db = await PGlite.create({ dataDir, loadDataDir: options.from });
    return new PgliteSqlClient(db);
  }

  /** The whole database as a tarball `open` can start from. */
  dump(): Promise<Blob> {
    return this.db.dumpDataDir('none');
  }

  async query<Row>(sql: string, params?: readonly unknown[]): Promise<SqlResult<Row>> {
    const result = await this.db.query<Row>(sql, params as unknown[] | undefined);
    return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
  }

  queryPrepared<Row>(sql: string, params?: readonly unknown[]): Promise<SqlResult<Row>> {
    return this.query<Row>(sql, params);
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (pgliteTx) => {
      const issued = new IssuedStatements();
      const run = async <Row>(sql: string, params?: readonly unknown[]): Promise<SqlResult<Row>> => {
        const result = await pgliteTx.query<Row>(sql, params as unknown[] | undefined);
        return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
      };
      const tx = issued.tracking({ query: run, queryPrepared: run });
      try {
        const value = await work(tx);
        // A failed statement the work did not await must not be committed as a silent ROLLBACK.
        await issued.allSucceeded();
        issued.end();
        return value;
      } catch (error) {
        issued.end();
        await issued.settled();
        throw error;
      }
    });
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}
