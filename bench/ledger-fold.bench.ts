/**
 * What a ledger costs to decide on and to replay as its open payouts grow, beside a raw baseline.
 *
 *   npm run bench:ledger      (BENCH_PAYOUTS=20000, BENCH_ROUNDS=3)
 *
 * For each number of payouts open at once, it creates BENCH_PAYOUTS payouts through the domain
 * (decide, then evolve: what a command does) and settles the oldest once that many are open, then
 * replays the whole stream from the start (what a cold load and an auditor do). The baseline does
 * the same bookkeeping in place: mutable Maps and big.js sums, no decisions, no invariants, no
 * immutable states. Everything is in memory; the figures are medians of the rounds.
 */
import Big from 'big.js';
import { performance } from 'node:perf_hooks';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  LedgerCommand,
  LedgerEvent,
  LedgerState,
} from '@payouts/domain';

const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPEN_AT_ONCE = [100, 1_000, 5_000];
const NOW = new Date('2026-11-22T00:00:00.000Z');

interface Figures {
  decidePerPayoutUs: number;
  replayMs: number;
  baselinePerPayoutUs: number;
  events: number;
}

function domainRun(open: number): { decideMs: number; replayMs: number; events: number } {
  let state: LedgerState = initialLedgerState();
  const events: LedgerEvent[] = [];
  const run = (command: LedgerCommand) => {
    for (const event of decideLedger(command, state, NOW)) {
      state = evolveLedger(state, event);
      events.push(event);
    }
  };
  run({
    type: 'SetLedgerLimits',
    data: {
      accountId: 'acct_bench',
      environment: 'sandbox',
      limits: {
        feePerPayout: '0.25',
        minPayout: '1.00',
        maxPayout: '1000.00',
        maxOpenExposure: '100000000.00',
        maxPendingPerCustomer: 1_000_000,
      },
    },
  });
  run({
    type: 'CreditFunds',
    data: {
      accountId: 'acct_bench',
      environment: 'sandbox',
      amount: '100000000.00',
      reference: 'bench',
      reason: 'bench',
    },
  });
  const start = performance.now();
  for (let i = 0; i < PAYOUTS; i += 1) {
    run({
      type: 'ReservePayoutFunds',
      data: { payoutId: `po_${i}`, customerKey: `email:${i}`, amount: '1.00' },
    });
    if (i >= open) run({ type: 'SettlePayoutFunds', data: { payoutId: `po_${i - open}` } });
  }
  const decideMs = performance.now() - start;
  const replayStart = performance.now();
  events.reduce(evolveLedger, initialLedgerState());
  return { decideMs, replayMs: performance.now() - replayStart, events: events.length };
}

/** The same reservations kept in place: the least any fold of these events can cost. */
function baselineRun(open: number): number {
  const reservations = new Map<string, { customerKey: string; total: Big }>();
  const pending = new Map<string, number>();
  let available = new Big('100000000.00');
  let holds = new Big(0);
  const start = performance.now();
  for (let i = 0; i < PAYOUTS; i += 1) {
    const total = new Big('1.00').plus('0.25');
    const customerKey = `email:${i}`;
    reservations.set(`po_${i}`, { customerKey, total });
    pending.set(customerKey, (pending.get(customerKey) ?? 0) + 1);
    available = available.minus(total);
    holds = holds.plus(total);
    if (i >= open) {
      const done = reservations.get(`po_${i - open}`)!;
      reservations.delete(`po_${i - open}`);
      const left = (pending.get(done.customerKey) ?? 1) - 1;
      if (left === 0) pending.delete(done.customerKey);
      else pending.set(done.customerKey, left);
      holds = holds.minus(done.total);
    }
  }
  return performance.now() - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function main(): void {
  process.stdout.write(
    `${PAYOUTS} payouts per run, median of ${ROUNDS} round(s)\n` +
      'open at once   domain µs/payout   replay ms (events)   baseline µs/payout   domain/baseline\n',
  );
  for (const open of OPEN_AT_ONCE) {
    const rounds: Figures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const domain = domainRun(open);
      rounds.push({
        decidePerPayoutUs: (domain.decideMs * 1000) / PAYOUTS,
        replayMs: domain.replayMs,
        baselinePerPayoutUs: (baselineRun(open) * 1000) / PAYOUTS,
        events: domain.events,
      });
    }
    const decide = median(rounds.map((r) => r.decidePerPayoutUs));
    const baseline = median(rounds.map((r) => r.baselinePerPayoutUs));
    process.stdout.write(
      `${String(open).padStart(12)} ${decide.toFixed(1).padStart(18)} ${`${median(rounds.map((r) => r.replayMs)).toFixed(0)} (${rounds[0]!.events})`.padStart(20)} ${baseline.toFixed(1).padStart(20)} ${(decide / baseline).toFixed(1).padStart(17)}\n`,
    );
  }
}

main();
