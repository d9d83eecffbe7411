import { RowStatement, runRowStatement, SqlClient, SqlState, sqlStateOf } from '@payouts/database';
import { GroupingLimits, GroupingQueue, GroupMember, settleGroup } from './grouping-queue';
import { batchingRows, writeRow } from './row-batches';

export const GROUPED_WRITES_LIMITS: GroupingLimits = Object.freeze({ maxWeight: 64, maxInFlight: 2 });

interface Statement extends GroupMember {
  statement: RowStatement;
  params: readonly unknown[];
  resolve(rows: unknown[]): void;
}

/**
 * Single-row writes of concurrent requests, committed together: one statement per row statement,
 * one round trip and one COMMIT (a WAL flush) for the group where each row in autocommit had its
 * own. A group whose rows all share one statement is that statement in autocommit; a group of
 * several statements is one transaction. For a write that is atomic on its own and means the same
 * inside a shared transaction, such as claiming an idempotency key with INSERT ... ON CONFLICT;
 * rows that one statement must not write together (the same key twice) carry the same key, and
 * never share a group. Each answers only once the group has committed, so when its caller goes on
 * its effect is as durable and as visible to other connections as in autocommit.
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

  /** Writes one row with `statement` (see writeRow) in the next group; answers its returned rows. */
  writeRow<Row>(
    statement: RowStatement,
    params: readonly unknown[],
    keys: readonly string[] = [],
  ): Promise<Row[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      this.groups.add({ statement, params, resolve, fail: reject, keys, weight: 1 });
    }) as Promise<Row[]>;
  }

  private commit(group: Statement[]): Promise<void> {
    return settleGroup(group, {
      alone: (row) => writeRow(this.db, row.statement, row.params),
      together: (rows) => {
        const { statement } = rows[0]!;
        // One statement is atomic on its own: autocommit spares the group BEGIN and COMMIT.
        if (rows.every((row) => row.statement === statement)) {
          return runRowStatement(
            this.db,
            statement,
            rows.map((row) => row.params),
          );
        }
        return this.db.transaction((tx) => {
          const batched = batchingRows(tx);
          return Promise.all(rows.map((row) => writeRow(batched, row.statement, row.params)));
        });
      },
      runsAgainAlone: abortedByTheDatabase,
    });
  }
}

function abortedByTheDatabase(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === SqlState.deadlockDetected || state === SqlState.serializationFailure;
}
