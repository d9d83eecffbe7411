import { Finding, verifyLog } from '@payouts/audit';
import { migrate, SqlClient } from '@payouts/database';
import { cliDatabase, CliDatabase, testBackends, usingCliDatabase } from '@payouts/testing';
import { buildAuditLog } from '../../../bench/support/audit-log/build-audit-log';
import { chainWholeLog } from '../../../bench/support/audit-log/live-state';
import { runAudit } from '../../../tools/audit/main';

/** The event deleted, and what its stream held after it. */
interface Deleted {
  streamId: string;
  version: number;
  position: string;
  /** The position of the stream's next version, where verify finds the stream waiting. */
  nextPosition: string;
  /** The stream's events after the deleted one. */
  later: number;
  /** Paid orders whose proceeds are the deleted event or one of the later ones. */
  proceeds: number;
}

/**
 * One event deleted in the middle of the busiest ledger of a log the write side's own deciders
 * made (the audit bench's log: payouts, orders with their proceeds, settlements, interleaved over
 * several accounts), after the chain keeper linked it: one cause, whose consequences verify sums
 * up under it (docs/audit.md, "One cause, its consequences") instead of a finding per later event.
 */
describe.each(testBackends().map((backend) => backend.name))(
  'verify on a log with one ledger event deleted, on %s',
  (backend) => {
    let database: CliDatabase;
    let deleted: Deleted;
    const using = <T>(work: (db: SqlClient) => Promise<T>) => usingCliDatabase(database, work);

    beforeAll(async () => {
      database = await cliDatabase(backend);
      deleted = await using(async (db) => {
        await migrate(db);
        await buildAuditLog(db, { events: 3_000, accounts: 3, days: 8, batchEvents: 500 });
        await chainWholeLog(db);
        return deleteInTheMiddleOfTheBusiestLedger(db);
      });
    });
    afterAll(() => database.drop());

    it('reports the deletion once, with the later events of its stream counted under it', async () => {
      expect(deleted.later).toBeGreaterThan(100);
      expect(deleted.proceeds).toBeGreaterThan(5);
      const findings: Finding[] = [];
      const report = await using((db) =>
        verifyLog(db, { onFinding: (f) => findings.push(f), batchSize: 100 }),
      );
      expect(findings).toEqual([
        {
          kind: 'deleted',
          position: deleted.position,
          streamId: deleted.streamId,
          detail: 'the chain has a link for this position but the event is gone',
          consequence: {
            streamId: deleted.streamId,
            uncheckedEvents: deleted.later,
            unpaired: deleted.proceeds,
            finding: {
              kind: 'version_gap',
              position: deleted.nextPosition,
              detail: `version ${deleted.version + 1} follows version ${deleted.version - 1}`,
            },
          },
        },
      ]);
      expect(report.findings).toBe(1);
    });

    it('prints the cause, then its consequences indented under it, and exits 1', async () => {
      const stdout: string[] = [];
      const output = { line: async (text: string) => void stdout.push(text), progress: () => undefined };
      const code = await runAudit(['verify'], output, database.env);
      const { streamId, position, nextPosition, version, later, proceeds } = deleted;
      expect(stdout.join('\n').split('\n')).toEqual([
        `finding deleted position=${position} stream=${streamId}: the chain has a link for this position but the event is gone`,
        `  consequence version_gap position=${nextPosition} stream=${streamId}: version ${version + 1} follows version ${version - 1}`,
        `  consequence: ${later} later event(s) of stream ${streamId} could not be checked, nor ${proceeds} paid order(s) or proceeds whose other half is among them`,
        expect.stringMatching(/^summary: \d+ events in \d+ streams checked .*; 1 finding\(s\); /),
      ]);
      expect(code).toBe(1);
    });
  },
);

/** What an attacker with the database's superuser would do, to the busiest ledger's middle event. */
async function deleteInTheMiddleOfTheBusiestLedger(db: SqlClient): Promise<Deleted> {
  const busiest = await db.query<{ stream_id: string; events: number }>(
    `SELECT stream_id, count(*)::int AS events FROM events WHERE stream_type = 'ledger'
      GROUP BY stream_id ORDER BY count(*) DESC, stream_id LIMIT 1`,
  );
  const { stream_id: streamId, events } = busiest.rows[0]!;
  const version = Math.floor(events / 2);
  const { rows } = await db.query<{ position: string; next: string; proceeds: number }>(
    `SELECT (SELECT global_position::text FROM events WHERE stream_id = $1 AND stream_version = $2) AS position,
            (SELECT global_position::text FROM events WHERE stream_id = $1 AND stream_version = $2 + 1) AS next,
            (SELECT count(*)::int FROM events WHERE stream_id = $1 AND stream_version >= $2
                AND event_type = 'PaymentProceedsRecorded') AS proceeds`,
    [streamId, version],
  );
  await db.exec('ALTER TABLE events DISABLE TRIGGER events_no_update');
  await db.query('DELETE FROM events WHERE global_position = $1', [rows[0]!.position]);
  await db.exec('ALTER TABLE events ENABLE TRIGGER events_no_update');
  return {
    streamId,
    version,
    position: rows[0]!.position,
    nextPosition: rows[0]!.next,
    later: events - version,
    proceeds: rows[0]!.proceeds,
  };
}
