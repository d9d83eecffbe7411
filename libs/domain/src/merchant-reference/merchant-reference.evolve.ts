import { Aggregate, currentVersionsOnly } from '../kernel/aggregate';
import {
  MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
  MERCHANT_REFERENCE_STREAM_TYPE,
  MerchantReferenceClaimed,
  MerchantReferenceState,
} from './merchant-reference';

/** The first claim stands: a merchant reference belongs to one payout forever. */
export function evolveMerchantReference(
  state: MerchantReferenceState,
  event: MerchantReferenceClaimed,
): MerchantReferenceState {
  return state.claimedBy ? state : { claimedBy: event.data.payoutId };
}

/** A merchant reference's claim, as it is loaded everywhere. */
export const MERCHANT_REFERENCE_AGGREGATE: Aggregate<MerchantReferenceClaimed, MerchantReferenceState> = {
  streamType: MERCHANT_REFERENCE_STREAM_TYPE,
  initial: () => ({ claimedBy: null }),
  evolve: evolveMerchantReference,
  upcast: currentVersionsOnly(MERCHANT_REFERENCE_STREAM_TYPE, {
    MerchantReferenceClaimed: MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
  }),
};
