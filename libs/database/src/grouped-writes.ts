import { GroupingLimits, GroupingQueue, GroupMember, settleGroup } from './grouping-queue';
import { SqlClient, SqlResult, SqlState, sqlStateOf } from './sql-client';

export const GROUPED_WRITES_LIMITS: GroupingLimits = Object.freeze({ maxWeight: 64, maxInFlight: 2 });

interface Statement extends GroupMember {
  sql: string;
  params: readonly unknown[];
  resolve(result: SqlResult<unknown>): void;
}

/**
 * Single-statement writes of concurrent requests, committed together: one round trip and one
 * COMMIT (a WAL flush) for the group where each statement in autocommit had its own. For a
 * statement that is atomic on its own and means the same inside a shared transaction, such as
 * claiming an idempotency key with INSERT ... ON CONFLICT. Each answers only once the group has
 * committed, so when its caller goes on its effect is as durable and as visible to other
 * connections as in autocommit.
 *
 * A group the database aborted to break a deadlock, or for a serialization failure, wrote
 * nothing: each statement then runs again alone. Any other failure reaches every statement of
 * the group as it is, as it would have reached each on its own.
 */
export class GroupedWrites {
  private readonly groups: GroupingQueue<Statement>;

  constructor(
    private readonly db: SqlClient,
    limits: GroupingLimits = GROUPED_WRITES_LIMITS,
  ) {
    this.groups = new GroupingQueue(limits, (group) => this.commit(group));
  }

  queryPrepared<Row>(sql: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
    return new Promise<SqlResult<unknown>>((resolve, reject) => {
      this.groups.add({ sql, params, resolve, fail: reject, keys: [], weight: 1 });
    }) as Promise<SqlResult<Row>>;
  }

  private commit(group: Statement[]): Promise<void> {
    return settleGroup(group, {
      alone: (statement) => this.db.queryPrepared(statement.sql, statement.params),
      together: (statements) =>
        this.db.transaction((tx) =>
          Promise.all(statements.map((statement) => tx.queryPrepared(statement.sql, statement.params))),
        ),
      runsAgainAlone: abortedByTheDatabase,
    });
  }
}

function abortedByTheDatabase(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === SqlState.deadlockDetected || state === SqlState.serializationFailure;
}
