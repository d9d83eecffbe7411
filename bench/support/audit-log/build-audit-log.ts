import { randomBytes } from 'node:crypto';
import { CheckoutPageTokens } from '@payouts/checkout';
import { loadConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { DAY_MS } from '@payouts/domain';
import { ClaimLinkTokens } from '@payouts/payouts';
import { FundsCommands } from './funds-commands';
import { LogWriter } from './log-writer';
import { MemoryStreams } from './memory-streams';
import { OrderCommands } from './order-commands';
import { OrderTraffic } from './order-traffic';
import { PayoutCommands } from './payout-commands';
import { PayoutTraffic } from './payout-traffic';
import { seededRandom } from './random-values';
import { Schedule } from './schedule';
import { countingRefusals, EVENTS_PER_ACTION, Traffic, TrafficCounts } from './traffic';

export interface AuditLogSettings {
  /** Stops deciding once this many events are decided (the last command's append completes). */
  events: number;
  accounts: number;
  seed?: number;
  /** About how many simulated days the log spans (nightly runs, maturing, expiries). */
  days?: number;
  /** Events per transaction. */
  batchEvents?: number;
  /** The production float's opening balance (250000.00): once paid out, payouts queue for a top-up. */
  productionFloat?: string;
  onProgress?: (events: number) => void;
}

export interface AuditLogReport extends TrafficCounts {
  events: number;
  appends: number;
  accounts: number;
  seconds: number;
  from: string;
  to: string;
  types: Record<string, number>;
}

/** Where the simulated clock starts. */
const START = '2026-01-05T00:00:00.000Z';
/** The order-id sequence's first value (migration 0019). */
const FIRST_ORDER_ID = 1_000_001;

/**
 * Fills a migrated, empty database with a log of the service's own making: the write side's
 * commands decided in memory by the domain's deciders (bench/support/audit-log/*-commands.ts),
 * over `accounts` accounts whose traffic interleaves (traffic.ts), written a few thousand events
 * per transaction. No event is written by hand: a log `verify` should find nothing in, and whose
 * read models `replay` should rebuild exactly. Leaves the chain and the read models to their
 * keepers (live-state.ts), as a database restored without them would be.
 */
export async function buildAuditLog(db: SqlClient, settings: AuditLogSettings): Promise<AuditLogReport> {
  const started = Date.now();
  const config = loadConfig({});
  const writer = new LogWriter(db, settings.batchEvents ?? 5_000);
  const streams = new MemoryStreams(writer.append);
  const funds = new FundsCommands(streams);
  const key = randomBytes(32);
  const schedule = new Schedule(Date.parse(START));
  const random = seededRandom(settings.seed ?? 32);
  const counts: TrafficCounts = { refused: {}, actions: {} };
  const attempt = countingRefusals(counts);
  const orders = new OrderTraffic(
    new OrderCommands(streams, funds, CheckoutPageTokens.fromEncryptionKey(key), config.checkout),
    funds,
    schedule,
    random,
    attempt,
    FIRST_ORDER_ID,
    config.checkout.orderTtlMs,
  );
  const payouts = new PayoutTraffic(
    new PayoutCommands(streams, funds, ClaimLinkTokens.fromEncryptionKey(key)),
    funds,
    schedule,
    random,
    attempt,
  );
  const traffic = new Traffic(funds, orders, payouts, schedule, random, config, counts);
  traffic.open(settings.accounts, settings.productionFloat ?? '250000.00');
  const stepMs = ((settings.days ?? 30) * DAY_MS * EVENTS_PER_ACTION) / settings.events;
  let reported = 0;
  while (writer.events < settings.events) {
    traffic.step(stepMs);
    await writer.flushIfFull();
    if (settings.onProgress && writer.written >= reported + 100_000) {
      reported = writer.written;
      settings.onProgress(reported);
    }
  }
  await writer.finish();
  if (orders.lastOrderId >= FIRST_ORDER_ID) {
    await db.query(`SELECT setval('checkout_order_ids', $1::bigint)`, [orders.lastOrderId]);
  }
  return {
    events: writer.written,
    appends: writer.appends,
    accounts: settings.accounts,
    seconds: (Date.now() - started) / 1000,
    from: START,
    to: schedule.now.toISOString(),
    types: writer.types,
    ...counts,
  };
}
