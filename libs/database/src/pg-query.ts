import { Pool, Query, QueryResult } from 'pg';
import { textArrayLiteral } from './text-array-literal';

/**
 * A statement as pg's own Query object, built from its text and values. Given a plain config
 * object instead, pg first copies it with Object.getOwnPropertyDescriptors and defineProperties
 * (its cloneQueryConfig) and then reads a dozen properties from the slow-mode copy: 3-8 µs a
 * statement on this machine, against 0.4-0.5 µs for a Query, which pg takes as it is. Statements
 * are most of what a Get Payout does in this process, and a few of every Create.
 */
export class PgQuery extends Query {
  // Fields pg's Query has and @types/pg does not declare.
  declare name: string | undefined;
  declare callback: ((error: Error | undefined, result: QueryResult) => void) | undefined;

  /** `name`: a named prepared statement, parsed once per connection under that name. */
  constructor(text: string, values: readonly unknown[] | undefined, name?: string) {
    super(text, values === undefined ? undefined : values.map(parameterValue));
    if (name !== undefined) this.name = name;
  }
}

/** A parameter as pg takes it: arrays of strings written here, faster (text-array-literal.ts). */
function parameterValue(value: unknown): unknown {
  return Array.isArray(value) ? (textArrayLiteral(value) ?? value) : value;
}

/** Issues `query` on a client (pg answers a Query object through its callback, not a promise). */
export function submitted(query: PgQuery, issue: (query: PgQuery) => void): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    query.callback = (error, result) => (error ? reject(error) : resolve(result));
    issue(query);
  });
}

/**
 * Runs `query` on a client of `pool`. pg-pool answers a Query object with a promise as it does a
 * config (it gives the query its own callback, and releases the client in it); @types/pg types
 * that answer as the Query itself.
 */
export function pooled(pool: Pool, query: PgQuery): Promise<QueryResult> {
  return pool.query(query) as unknown as Promise<QueryResult>;
}
