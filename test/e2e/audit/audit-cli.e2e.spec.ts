import { chainLink, ExportedEvent } from '@payouts/audit';
import { migrate } from '@payouts/database';
import { PostgresEventStore, FEED_START } from '@payouts/event-store';
import { cliDatabase, CliDatabase, testBackends, usingCliDatabase as using } from '@payouts/testing';
import { appendHistory, AT, chainEverything, LEDGER } from '../../../libs/audit/src/testing/audit-history';
import { StoredEventTampering } from '../../../libs/event-store/src/testing/stored-event-tampering';
import { runAudit } from './audit-process';

/** The built CLI as its own process (audit-process.ts). */
const audit = runAudit;

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe.each(testBackends().map((b) => b.name))('npm run audit on %s', (backend) => {
  let database: CliDatabase;
  let written: number;

  beforeAll(async () => {
    database = await cliDatabase(backend);
    written = await using(database, async (db) => {
      await migrate(db);
      const store = new PostgresEventStore(db);
      const count = await appendHistory(store);
      await chainEverything(store);
      await store.close();
      return count;
    });
  });
  afterAll(() => database.drop());

  it('verify exits 0 on a clean log and sums up what it checked', async () => {
    const run = await audit(['verify'], database.env);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).not.toMatch(/^finding/m);
    expect(run.stdout).toMatch(
      new RegExp(`^summary: ${written} events in \\d+ streams checked .* events/s\\); 0 finding`, 'm'),
    );
  });

  it('export writes every event once, in feed order, in envelopes whose links check on their own', async () => {
    const run = await audit(['export'], database.env);
    expect(run.code).toBe(0);
    const exported = lines(run.stdout).map((line) => JSON.parse(line) as ExportedEvent);
    const feed = await using(database, (db) => new PostgresEventStore(db).readFeed(FEED_START, 1000));
    expect(exported.map((e) => [e.envelope, String(e.position), e.event_id, e.data])).toEqual(
      feed.map((e) => ['payouts.event/v1', e.globalPosition, e.eventId, e.data]),
    );
    for (const line of exported) {
      const recomputed = chainLink(line.chain!.previous, {
        streamId: line.stream_id,
        streamType: line.stream_type,
        streamVersion: line.stream_version,
        eventId: line.event_id,
        eventType: line.type,
        schemaVersion: line.schema_version,
        data: line.data,
        metadata: line.metadata,
        recordedAt: line.recorded_at,
      });
      expect(recomputed).toBe(line.chain!.link);
    }

    const fifth = String(exported[4]!.position);
    const from = await audit(['export', '--from-position', fifth], database.env);
    expect(lines(from.stdout).map((l) => (JSON.parse(l) as ExportedEvent).position)).toEqual(
      exported.slice(4).map((e) => e.position),
    );
    const after = await audit(['export', `--after-position=${fifth}`], database.env);
    expect(lines(after.stdout)).toHaveLength(exported.length - 5);
    expect(await audit(['export', '--from-position', '999999'], database.env)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no event at position 999999/),
    });
  });

  it('replay rebuilds the read models in a scratch schema, finds them equal and leaves nothing behind', async () => {
    // No projector ran here: the live tables are empty, and the live copy is brought up to date
    // from the start of the log, as the projector would on its first start.
    const run = await audit(['replay', '--batch-size', '7'], database.env);
    expect(run).toMatchObject({ code: 0, stdout: expect.stringMatching(/^summary: /) });
    expect(lines(run.stdout)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^summary: ${written} events replayed in .* events/s\\) up to position \\d+; \\d+ rows compared in 5 tables; 0 difference\\(s\\); ${written} event\\(s\\) after the projector's checkpoint \\(position 0\\) applied to the live copy$`,
        ),
      ),
    ]);
    const schemas = await using(database, (db) =>
      db.query(`SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'audit_replay%'`),
    );
    expect(schemas.rows).toEqual([]);
  });

  it('answers --help with exit 0, and bad arguments, an unknown verb or no database with exit 2', async () => {
    const help = await audit(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: npm run audit -- <verb>/);
    expect((await audit(['verify', '--help'], {})).code).toBe(0);
    for (const args of [[], ['audit-everything'], ['verify', '--fast'], ['export', '--from-position', 'x']]) {
      expect({ args, code: (await audit(args, database.env)).code }).toEqual({ args, code: 2 });
    }
    expect(await audit(['replay', '--batch-size', '0'], database.env)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--batch-size must be an integer/),
    });
    expect(await audit(['statement'], database.env)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--account is required/),
    });
    const unreachable = await audit(['verify'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(unreachable).toMatchObject({ code: 2, stderr: expect.stringMatching(/cannot reach/) });
  });

  it("statement prints the ledger's movements as CSV between its opening and closing lines", async () => {
    const run = await audit(
      [
        'statement',
        '--account',
        'acc_1',
        '--environment',
        'sandbox',
        '--from',
        '2026-03-01',
        '--to',
        '2026-03-02',
      ],
      database.env,
    );
    expect(run.code).toBe(0);
    expect(lines(run.stdout).map((line) => line.split(',').slice(0, 4).join(','))).toEqual([
      'kind,time,ledger_version,type',
      'opening,2026-03-01T00:00:00.000Z,0,',
      `movement,${AT},2,adjustment`,
      `movement,${AT},3,payout_reserved`,
      `movement,${AT},4,payout_paid`,
      `movement,${AT},5,payout_reserved`,
      `movement,${AT},6,payout_released`,
      `movement,${AT},7,payment`,
      `movement,${AT},7,payment_fee`,
      `movement,${AT},8,payment_matured`,
      'closing,2026-03-02T00:00:00.000Z,8,',
    ]);
  });

  it('verify exits 1 and names the position and stream of an event edited in SQL', async () => {
    const edited = await using(database, async (db) => {
      const { events } = await new PostgresEventStore(db).readStream(LEDGER, {
        fromVersion: 2,
        toVersion: 2,
      });
      const position = events[0]!.globalPosition;
      await new StoredEventTampering(db).editData(position, 'amount', '1000000.00');
      return position;
    });
    const run = await audit(['verify'], database.env);
    expect(run.code).toBe(1);
    expect(lines(run.stdout).filter((l) => l.startsWith('finding'))).toEqual([
      expect.stringMatching(new RegExp(`^finding edited position=${edited} stream=${LEDGER}: `)),
    ]);
    expect(run.stdout).toMatch(/1 finding/);
  });

  it('verify prints an event deleted in SQL once, with what it left unchecked in its stream indented under it', async () => {
    const [deleted, next] = await using(database, async (db) => {
      const { events } = await new PostgresEventStore(db).readStream(LEDGER, {
        fromVersion: 5,
        toVersion: 6,
      });
      const positions = events.map((event) => event.globalPosition);
      await new StoredEventTampering(db).delete([positions[0]!]);
      return positions;
    });
    const run = await audit(['verify'], database.env);
    expect(run.code).toBe(1);
    // The ledger's version 5 (po_2's reservation) is gone; after it come versions 6 to 8, with
    // order 1042's proceeds (an edit from the test before may be printed above).
    const printed = lines(run.stdout);
    expect(printed.slice(printed.findIndex((line) => line.startsWith('finding deleted')))).toEqual([
      `finding deleted position=${deleted} stream=${LEDGER}: the chain has a link for this position but the event is gone`,
      `  consequence version_gap position=${next} stream=${LEDGER}: version 6 follows version 4`,
      `  consequence: 3 later event(s) of stream ${LEDGER} could not be checked, nor 1 paid order(s) or proceeds whose other half is among them`,
      expect.stringMatching(/^summary: /),
    ]);
    // Each `finding` line is one finding; the consequences under it are not counted.
    const findings = printed.filter((line) => line.startsWith('finding')).length;
    expect(run.stdout).toMatch(new RegExp(`; ${findings} finding\\(s\\); `));
  });
});
