import { DomainError } from '../kernel/domain-error';
import { Environment } from '../kernel/decider';

/**
 * `merchant_reference` is unique per account and environment forever. Each reference is a tiny
 * stream of its own, claimed in the same atomic append as the payout it names, so two concurrent
 * creates with one reference cannot both succeed (the event store's optimistic concurrency
 * decides) and nothing needs a unique index on a read model.
 */
export type MerchantReferenceClaimed = {
  type: 'MerchantReferenceClaimed';
  data: {
    accountId: string;
    environment: Environment;
    merchantReference: string;
    payoutId: string;
    at: string;
  };
};

export type MerchantReferenceState = { claimedBy: string | null };

export const MERCHANT_REFERENCE_STREAM_TYPE = 'merchant-reference';
export const MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION = 1;

export function claimMerchantReference(
  state: MerchantReferenceState,
  claim: { accountId: string; environment: Environment; merchantReference: string; payoutId: string },
  now: Date,
): MerchantReferenceClaimed[] {
  if (state.claimedBy !== null) {
    throw new DomainError(
      'duplicate_merchant_reference',
      'merchant_reference is already used by another payout of this account',
      'merchant_reference',
    );
  }
  // Listed, not spread (docs/performance.md#allocation-on-the-hot-path).
  return [
    {
      type: 'MerchantReferenceClaimed',
      data: {
        accountId: claim.accountId,
        environment: claim.environment,
        merchantReference: claim.merchantReference,
        payoutId: claim.payoutId,
        at: now.toISOString(),
      },
    },
  ];
}
