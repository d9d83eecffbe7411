import { FeedCheckpoint } from './event-store.port';

const DECIMAL = /^(0|[1-9][0-9]{0,19})$/;

/** True for a checkpoint whose parts are non-negative decimal integers (what the store hands out). */
export function isFeedCheckpoint(value: FeedCheckpoint): boolean {
  return DECIMAL.test(value.transactionId) && DECIMAL.test(value.position);
}

/** Feed order: by transaction id, then by global position. Negative, zero or positive. */
export function compareCheckpoints(a: FeedCheckpoint, b: FeedCheckpoint): number {
  const byTransaction = compareDecimal(a.transactionId, b.transactionId);
  return byTransaction !== 0 ? byTransaction : compareDecimal(a.position, b.position);
}

function compareDecimal(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
