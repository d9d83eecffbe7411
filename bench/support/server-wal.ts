import { Client } from 'pg';

/**
 * The PostgreSQL server's write-ahead log position, so a benchmark can print how many bytes of WAL
 * a request cost: what the server's disk, its replicas and its archive receive for it. Counts
 * every database on the server, so only figures from a run on an otherwise quiet server mean
 * anything.
 */
export class ServerWal {
  private constructor(private readonly client: Client) {}

  static async open(serverUrl: string): Promise<ServerWal> {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    return new ServerWal(client);
  }

  /** Bytes of WAL the server has written since it was created. */
  async position(): Promise<number> {
    const result = await this.client.query<{ bytes: string }>(
      `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS bytes`,
    );
    return Number(result.rows[0]!.bytes);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
