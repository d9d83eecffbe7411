import { payoutStreamId } from '@payouts/domain';

const PAYOUT_PREFIX = payoutStreamId('');
/** merchantReferenceStreamId's prefix (libs/payouts), in both its readable and its digest form. */
const MERCHANT_REFERENCE_PREFIX = 'merchant-reference-';

/**
 * Whether a stream is folded on the chain's thread rather than the main one: payouts and their
 * merchant references. The main thread, which reads the log and sends it on, is verify's critical
 * path while the chain's thread waits for pages about a third of a run; these streams are about a
 * third of the events and more than half of the streams in bench:audit's log (each new stream id
 * costs a first lookup), and nothing else in the log needs their folds (fold-pass.ts: any split
 * by stream id gives the same findings). Ledgers, floats and orders stay on the main thread.
 */
export function foldedBesideTheChain(streamId: string): boolean {
  return streamId.startsWith(PAYOUT_PREFIX) || streamId.startsWith(MERCHANT_REFERENCE_PREFIX);
}
