import Big from 'big.js';
import { Call, newKey } from '../api/gateway-harness';

/** One create of the burst: what was asked, where, and how it ended. */
export interface BurstCreate {
  index: number;
  amount: string;
  key: string;
  customerId: string;
  /** The answers it got, in order, as `<gateway index>:<status>[:<code>]` or `<gateway>:lost`. */
  trail: string[];
  outcome: 'accepted' | 'refused' | 'unresolved';
  refusal?: string;
  payoutId?: string;
  payoutUrl?: string;
  /** Amount plus fee, as Create answered it. */
  totalReserved?: string;
  /** Accepted by a replay of the key (a retry found the first attempt committed). */
  replayed?: boolean;
}

/** Statuses after which the same request, same key, is sent again (docs/design.md#idempotency). */
const RETRY_LATER = new Set([
  'idempotency_key_in_progress',
  'attempt_unresolved',
  'overloaded',
  'service_unavailable',
]);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one create, and again with the same key until it has a final answer: to the next live
 * gateway when the one it used is gone (the connection failed), after Retry-After on a 503, after
 * a second while another attempt holds the key (a killed gateway's key is free once its lease ran
 * out). A final answer is 201, or any 4xx but the key in progress.
 */
async function createUntilAnswered(
  create: BurstCreate,
  body: Record<string, unknown>,
  gateways: () => Call[],
  first: number,
  token: string,
  deadlineMs: number,
): Promise<void> {
  let turn = first;
  while (Date.now() < deadlineMs) {
    const live = gateways();
    const gateway = turn % live.length;
    const call = live[gateway]!;
    let answer;
    try {
      answer = await call('POST', '/sandbox/api/payout/create', { token, key: create.key, body });
    } catch {
      create.trail.push(`${gateway}:lost`);
      turn += 1;
      await pause(200);
      continue;
    }
    const code = answer.body?.error?.code as string | undefined;
    create.trail.push(`${gateway}:${answer.status}${code ? `:${code}` : ''}`);
    if (answer.status === 201) {
      create.outcome = 'accepted';
      create.payoutId = answer.body.payout_id as string;
      create.payoutUrl = (answer.body.payout_url as string | null) ?? undefined;
      create.totalReserved = answer.body.total_reserved as string;
      create.replayed = answer.headers.get('idempotent-replayed') === 'true';
      return;
    }
    if (code && RETRY_LATER.has(code)) {
      await pause(Number(answer.headers.get('retry-after') ?? '1') * 1000);
      continue;
    }
    create.outcome = 'refused';
    create.refusal = `${answer.status} ${code ?? ''}`.trim();
    return;
  }
}

/**
 * `count` redirect payouts of varied amounts created at once on one balance, spread round-robin
 * over the gateways; `during` runs once the first answers are in (to kill a gateway mid-burst).
 */
export async function payoutBurst(options: {
  count: number;
  token: string;
  gateways: () => Call[];
  returnUrl: string;
  during: () => Promise<void>;
  deadlineMs: number;
}): Promise<BurstCreate[]> {
  const creates: BurstCreate[] = Array.from({ length: options.count }, (_, index) => ({
    index,
    // 5.00 to 19.99, every cent pattern: sums that only decimal arithmetic gets right.
    amount: new Big(500 + ((index * 373) % 1500)).div(100).toFixed(2),
    key: `burst-${newKey()}-${index}`,
    customerId: `cus_burst_${index}`,
    trail: [],
    outcome: 'unresolved',
  }));
  const deadline = Date.now() + options.deadlineMs;
  let answered = 0;
  const sent = creates.map(async (create) => {
    const body = {
      amount: create.amount,
      merchant_reference: `burst-${create.index}-${create.key}`,
      delivery: 'redirect',
      customer_id: create.customerId,
      return_url: options.returnUrl,
    };
    await createUntilAnswered(create, body, options.gateways, create.index, options.token, deadline);
    answered += 1;
  });
  // The first answers are in, the rest on the wire or being decided: the moment to lose a gateway.
  while (answered < Math.min(5, options.count) && Date.now() < deadline) await pause(5);
  const triggered = options.during();
  await Promise.all(sent);
  await triggered;
  return creates;
}
