import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PgliteSqlClient, PostgresSqlClient, SqlClient } from '@payouts/database';
import { PrismaClient } from './generated/prisma/client';

export type ReadModelClient = PrismaClient;

/**
 * Prisma reads the read models through a driver adapter over the same database handle the
 * event store uses: the PGlite instance in embedded mode (one connection, so sharing it is
 * required), the process's pg pool on a server.
 */
export function createReadModelClient(db: SqlClient): ReadModelClient {
  if (db instanceof PgliteSqlClient) return new PrismaClient({ adapter: new PrismaPGlite(db.db) });
  if (db instanceof PostgresSqlClient) return new PrismaClient({ adapter: new PrismaPg(db.pool) });
  throw new Error(`no Prisma adapter for database kind ${db.kind}`);
}
