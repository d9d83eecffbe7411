import { createHash } from 'node:crypto';
import { Pool, PoolConfig, QueryConfig } from 'pg';
import { SqlClient, SqlQueryable, SqlResult } from './sql-client';

export interface PostgresClientOptions {
  connectionString: string;
  /** Connections in the pool; each process gets its own pool. */
  maxConnections?: number;
  /** Gives up connecting after this long, so an unreachable server is a clear start-up error. */
  connectTimeoutMs?: number;
  applicationName?: string;
}

export class PostgresSqlClient implements SqlClient {
  readonly kind = 'postgres' as const;
  /** Shared with the Prisma driver adapter so one process keeps one pool. */
  readonly pool: Pool;

  constructor(options: PostgresClientOptions) {
    const config: PoolConfig = {
      connectionString: options.connectionString,
      max: options.maxConnections ?? 20,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      application_name: options.applicationName ?? 'payouts',
    };
    this.pool = new Pool(config);
    // An idle client that loses its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async query<Row>(sql: string, params?: readonly unknown[]): Promise<SqlResult<Row>> {
    const result = await this.pool.query(sql, params as unknown[] | undefined);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  }

  private readonly preparedNames = new Map<string, string>();

  async queryPrepared<Row>(sql: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
    const result = await this.pool.query(this.preparedQuery(sql, params));
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  }

  /** pg keeps the parsed statement per connection under this name and parses it once there. */
  private preparedQuery(sql: string, params: readonly unknown[]): QueryConfig {
    let name = this.preparedNames.get(sql);
    if (name === undefined) {
      name = `stmt_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
      this.preparedNames.set(sql, name);
    }
    return { name, text: sql, values: [...params] };
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx: SqlQueryable = {
      query: async <Row>(sql: string, params?: readonly unknown[]) => {
        const result = await client.query(sql, params as unknown[] | undefined);
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      },
      queryPrepared: async <Row>(sql: string, params: readonly unknown[] = []) => {
        const result = await client.query(this.preparedQuery(sql, params));
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      },
    };
    let broken = false;
    try {
      await client.query('BEGIN');
      const value = await work(tx);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true; // the connection is unusable; drop it from the pool
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  private closing: Promise<void> | undefined;

  /** Idempotent: shutdown paths may reach it more than once. */
  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}
