import type { SqlQueryable } from '@payouts/database';
import { READ_MODEL_TABLES } from '../read-model.projection';

/** Every read-model table as sorted row text, one string per table: two databases equal, equal dumps. */
export async function dumpReadModels(db: SqlQueryable): Promise<string[]> {
  const tables: string[] = [];
  for (const table of READ_MODEL_TABLES) {
    const { rows } = await db.query<{ dump: string }>(
      `SELECT coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '') AS dump FROM ${table} t`,
    );
    tables.push(rows[0]!.dump);
  }
  return tables;
}
