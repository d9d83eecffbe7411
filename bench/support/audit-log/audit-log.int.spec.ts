import { verifyLog } from '@payouts/audit';
import type { Finding } from '@payouts/audit';
import { testBackends, TestDatabase } from '@payouts/testing';
import { AuditLogReport, buildAuditLog } from './build-audit-log';
import { chainWholeLog, projectWholeLog } from './live-state';

/** Every way a payout, an order, a settlement and the float can go: the bench's log has each. */
const EVERY_OUTCOME = [
  'PayoutPaid',
  'PayoutCancelled',
  'PayoutExpired',
  'PayoutFailed',
  'PayoutReviewRequired',
  'PayoutReviewApproved',
  'PayoutAwaitingFloat',
  'PayoutLeftFloatQueue',
  'ClaimLinkIssued',
  'RedirectHandoffConsumed',
  'FloatReleased',
  'OrderPaid',
  'OrderPaymentDeclined',
  'OrderExpired',
  'PaymentProceedsMatured',
  'SettlementPaid',
  'SettlementFailed',
  'RetainedTargetSet',
  'AccountPricingSet',
];

describe.each(testBackends())('the audit bench’s log on $name', (backend) => {
  let database: TestDatabase;
  let built: AuditLogReport;

  beforeAll(async () => {
    database = await backend.open();
    built = await buildAuditLog(database.db, {
      events: 4_000,
      accounts: 12,
      days: 12,
      batchEvents: 700,
      productionFloat: '1500.00',
    });
  });
  afterAll(async () => database.drop());

  it('has every outcome, in several currencies, and as many events as it says', async () => {
    expect(Object.keys(built.types)).toEqual(expect.arrayContaining(EVERY_OUTCOME));
    const { rows } = await database.db.query<{ events: string; currencies: string }>(
      `SELECT (SELECT count(*) FROM events)::text AS events,
              (SELECT count(DISTINCT data->>'currency') FROM events WHERE event_type = 'OrderCreated')::text AS currencies`,
    );
    expect(Number(rows[0]!.events)).toBe(built.events);
    expect(built.events).toBeGreaterThanOrEqual(4_000);
    expect(Number(rows[0]!.currencies)).toBeGreaterThan(1);
  });

  it('keeps the event store’s stream rows at each stream’s last version, and the order ids past the last order', async () => {
    const { rows } = await database.db.query<{ off: string; missing: string; behind: boolean }>(
      `SELECT (SELECT count(*) FROM event_streams s
                WHERE s.version <> (SELECT max(e.stream_version) FROM events e WHERE e.stream_id = s.stream_id))::text AS off,
              (SELECT count(DISTINCT e.stream_id) - (SELECT count(*) FROM event_streams) FROM events e)::text AS missing,
              (SELECT last_value FROM checkout_order_ids)
                < (SELECT max((data->>'orderId')::bigint) FROM events WHERE event_type = 'OrderCreated') AS behind`,
    );
    expect(rows[0]).toEqual({ off: '0', missing: '0', behind: false });
  });

  it('is legal: the chain keeper links it, the projection takes it, and verify finds nothing', async () => {
    expect((await chainWholeLog(database.db)).events).toBe(built.events);
    expect((await projectWholeLog(database.db, 500)).events).toBe(built.events);
    const findings: Finding[] = [];
    const report = await verifyLog(database.db, { onFinding: (finding) => findings.push(finding) });
    expect(findings).toEqual([]);
    expect(report.events).toBe(built.events);
    expect(report.chain.links).toBe(built.events);
  });
});
