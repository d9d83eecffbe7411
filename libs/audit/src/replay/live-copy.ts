import type { SqlClient } from '@payouts/database';
import { ident, keyBound, sortable, TableShape } from './compare-tables';
import { LIVE_SCHEMA } from './scratch-schemas';

/**
 * Rows per transaction of the live copy on a server. Every transaction that writes holds back the
 * event feed of the whole server (the feed hands out nothing from a transaction younger than the
 * oldest one in flight, migration 0001), so a copy of a large table is many short transactions.
 */
export const LIVE_COPY_CHUNK_ROWS = 10_000;

/**
 * Copies one live table into the scratch schema `into` as the exported snapshot `snapshotId` sees
 * it, in key order, one short transaction per chunk: each imports the snapshot, so together they
 * copy the table exactly as it was at the pinned moment, whatever commits meanwhile. Calls
 * `onChunk` after each chunk (of `chunkRows`, default LIVE_COPY_CHUNK_ROWS) with the rows copied so far. Returns the rows copied.
 */
export async function copyLiveTable(
  scratch: SqlClient,
  shape: TableShape,
  into: string,
  snapshotId: string,
  options: { chunkRows?: number; onChunk?: (rows: number) => void } = {},
): Promise<number> {
  const chunkRows = options.chunkRows ?? LIVE_COPY_CHUNK_ROWS;
  if (!Number.isSafeInteger(chunkRows) || chunkRows < 1) throw new RangeError(`chunk rows: ${chunkRows}`);
  const order = shape.key.map(sortable).join(', ');
  const keys = shape.key.map((k, i) => `${ident(k.name)}::text AS k${i}`).join(', ');
  const chunk = (where: string) => `WITH page AS (
      SELECT * FROM ${LIVE_SCHEMA}.${ident(shape.table)} ${where} ORDER BY ${order} LIMIT ${chunkRows}
    ), copied AS (INSERT INTO ${ident(into)}.${ident(shape.table)} SELECT * FROM page)
    SELECT (SELECT count(*) FROM page)::int AS n, ${keys}
      FROM (SELECT * FROM page ORDER BY ${shape.key.map((k) => `${sortable(k)} DESC`).join(', ')} LIMIT 1) last`;
  const first = chunk('');
  const next = chunk(`WHERE (${order}) > (${keyBound(shape)})`);
  let copied = 0;
  let after: string[] | null = null;
  for (;;) {
    const bound: string[] | null = after;
    const last: ChunkEnd | undefined = await scratch.transaction(
      async (tx): Promise<ChunkEnd | undefined> => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        await tx.query(`SET TRANSACTION SNAPSHOT ${snapshotIdLiteral(snapshotId)}`);
        const { rows } = await tx.query<ChunkEnd>(bound ? next : first, bound ?? []);
        return rows[0];
      },
    );
    if (!last) return copied;
    copied += Number(last.n);
    options.onChunk?.(copied);
    if (Number(last.n) < chunkRows) return copied;
    after = shape.key.map((_, i): string => String(last[`k${i}`]));
  }
}

/** A chunk's row count and its last key (k0, k1, … as text). */
type ChunkEnd = Record<string, string | number>;

/** pg_export_snapshot() answers like `00000003-0000001B-1`: checked, since it is written into SQL. */
function snapshotIdLiteral(snapshotId: string): string {
  if (!/^[0-9A-F]+(-[0-9A-F]+)+$/i.test(snapshotId))
    throw new Error(`not an exported snapshot: ${snapshotId}`);
  return `'${snapshotId}'`;
}
