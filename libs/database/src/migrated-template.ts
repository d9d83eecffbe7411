import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadMigrations, migrate } from './migrations';
import { PgliteSqlClient } from './pglite-sql-client';

/**
 * A migrated, empty embedded database as a tarball, made once per set of migrations and PGlite
 * version and kept in the temporary folder for every process: an in-memory database (tests, a
 * throwaway embedded start) starts as a copy of it. initdb plus the migrations cost about 3 s a
 * database where starting from the tarball costs under 1 (docs/performance.md#the-development-loop).
 * The name holds a hash of both, so a tarball is never used for other migrations; `migrate` still
 * runs after opening and finds everything applied.
 */
export async function migratedTemplate(): Promise<Blob> {
  const pglite = dirname(require.resolve('@electric-sql/pglite'));
  const key = createHash('sha256')
    .update(readFileSync(join(pglite, '..', 'package.json')))
    .update(
      loadMigrations()
        .map((migration) => `${migration.name}:${migration.checksum}`)
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `payouts-pglite-migrated-${key}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    const db = await PgliteSqlClient.open();
    try {
      await migrate(db);
      const dump = Buffer.from(await (await db.dump()).arrayBuffer());
      // Written whole under another name first: processes running side by side may race.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(partial, dump);
      renameSync(partial, file);
      return new Blob([dump]);
    } finally {
      await db.close();
    }
  }
}
