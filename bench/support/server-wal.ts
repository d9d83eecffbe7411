import { Client } from 'pg';

/** Bytes in a mebibyte: the unit of max_wal_size, of the messages that fill WAL and of the report. */
export const MIB = 1048576;

/** What `ensureHeadroom` found and left: bytes of WAL segments ready ahead, and the WAL it wrote. */
export interface WalHeadroom {
  readyBefore: number;
  filled: number;
  readyAfter: number;
}

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

  /**
   * Bytes of WAL segment files the server holds beyond the one it is writing: what it can write
   * before a commit has to make a new segment. Listing pg_wal needs pg_monitor or a superuser.
   */
  async readyAhead(): Promise<number> {
    const result = await this.client.query<{ bytes: string }>(
      `SELECT coalesce(sum(size), 0)::text AS bytes FROM pg_ls_waldir()
        WHERE name ~ '^[0-9A-F]{24}$' AND name > pg_walfile_name(pg_current_wal_insert_lsn())`,
    );
    return Number(result.rows[0]!.bytes);
  }

  /**
   * Leaves the server about as much recycled WAL ahead as it keeps under steady load (its
   * max_wal_size), so a run measures the service rather than the server making WAL files.
   *
   * A server with no recycled segment left makes a new one inside the commit that needs it: it
   * writes the whole segment (16 MB) with zeros and syncs it (wait events IO:WALInitWrite and
   * WALInitSync). Under bench:api's Create load, with slow disk writes, that held every commit in
   * flight for 60-80 ms about once a second: such rounds had a p99 of 57-69 ms, against 21-28
   * with segments ready. Under steady load each checkpoint recycles the segments it frees, as
   * many as its recent checkpoints' distance suggests; a server that was idle before the run has
   * removed them down to min_wal_size (80 MB by default). So, when more than four segments short
   * of max_wal_size, this writes that much WAL as non-transactional logical messages (WAL only: no
   * table, no data page to write back later) and runs CHECKPOINT, which recycles those segments ahead of
   * the insert position. Needs a superuser (or pg_checkpoint and pg_monitor). Production
   * servers: `min_wal_size`, README.
   */
  async ensureHeadroom(): Promise<WalHeadroom> {
    // max_wal_size is set in MB, wal_segment_size in bytes.
    const settings = await this.client.query<{ max_wal_mib: string; segment: string }>(
      `SELECT (SELECT setting FROM pg_settings WHERE name = 'max_wal_size') AS max_wal_mib,
              (SELECT setting FROM pg_settings WHERE name = 'wal_segment_size') AS segment`,
    );
    const maxWalMib = Number(settings.rows[0]!.max_wal_mib);
    const readyBefore = await this.readyAhead();
    // A checkpoint leaves a segment or two of max_wal_size unrecycled; four spare a needless refill.
    if (readyBefore >= maxWalMib * MIB - 4 * Number(settings.rows[0]!.segment)) {
      return { readyBefore, filled: 0, readyAfter: readyBefore };
    }
    await this.client.query(
      `SELECT count(pg_logical_emit_message(false, 'bench-wal-headroom', repeat('x', $2::integer)))
         FROM generate_series(1, $1::integer)`,
      [maxWalMib, MIB],
    );
    await this.client.query('CHECKPOINT');
    return { readyBefore, filled: maxWalMib * MIB, readyAfter: await this.readyAhead() };
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
