import { Finding, verifyLog } from '@payouts/audit';
import { migrate, SqlClient } from '@payouts/database';
import { EVENT_STORE_LIMITS, PostgresEventStore, RecordedEvent } from '@payouts/event-store';
import { cliDatabase, CliDatabase, testBackends, usingCliDatabase } from '@payouts/testing';
import { StoredEventTampering } from '../../../libs/event-store/src/testing/stored-event-tampering';
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
  const store = new PostgresEventStore(db);
  // The ledger with the most events, the first by id of those with as many.
  let busiest: { streamId: string; events: RecordedEvent[] } | undefined;
  for (const streamId of await store.streamIds('ledger', { limit: EVENT_STORE_LIMITS.maxStreamIdsPage })) {
    const { events } = await store.readStream(streamId);
    if (!busiest || events.length > busiest.events.length) busiest = { streamId, events };
  }
  const { streamId, events } = busiest!;
  const version = Math.floor(events.length / 2);
  const at = (v: number) => events.find((event) => event.streamVersion === v)!;
  const position = at(version).globalPosition;
  const proceeds = events.filter(
    (event) => event.streamVersion >= version && event.type === 'PaymentProceedsRecorded',
  ).length;
  await new StoredEventTampering(db).delete([position]);
  return {
    streamId,
    version,
    position,
    nextPosition: at(version + 1).globalPosition,
    later: events.length - version,
    proceeds,
  };
}
