import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { AuthenticatedCredential, PayoutScope } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';
import type { PayoutMerchantView } from '@payouts/read-models';

/** Who is calling a payout endpoint, attached to the request by PayoutAuthGuard. */
export interface PayoutPrincipal {
  accountId: string;
  environment: Environment;
  credentialId: string;
  credential: AuthenticatedCredential;
  /**
   * On a route marked ReadsPayoutWithCredential: the payout named in the path, read in the
   * credential look-up's own statement (null when this account and environment has no such
   * payout). Undefined on every other route.
   */
  payoutReadWithCredential?: PayoutMerchantView | null;
  /**
   * On a route marked ReadsKeyUseWithCredential, when the request has a well-formed
   * Idempotency-Key: whether that key has a row in this scope, read in the credential look-up's
   * own statement. Undefined otherwise.
   */
  keyUseReadWithCredential?: KeyUseRead;
}

/** Whether an Idempotency-Key had a row in a scope (KEY_USE_BESIDE_CREDENTIAL_SQL), as read. */
export interface KeyUseRead {
  method: string;
  path: string;
  key: string;
  used: boolean;
}

export const REQUIRED_SCOPE = 'required_scope';
/** The scope an endpoint needs (spec 5.4): payouts:read for GET, payouts:write for POST. */
export const RequiresScope = (scope: PayoutScope) => SetMetadata(REQUIRED_SCOPE, scope);

export const READS_PAYOUT_WITH_CREDENTIAL = 'reads_payout_with_credential';
/**
 * Get Payout, the hottest read: the guard reads the payout named by the `payout_id` path parameter
 * in the same statement as the credential, so a Get costs the database one statement, not two.
 */
export const ReadsPayoutWithCredential = () => SetMetadata(READS_PAYOUT_WITH_CREDENTIAL, true);

export const READS_KEY_USE_WITH_CREDENTIAL = 'reads_key_use_with_credential';
/**
 * Create Payout: the guard reads whether the request's Idempotency-Key has a row in the same
 * statement as the credential, so a create with a new key costs one look-up, not two.
 * `path`: the idempotency scope's path, as the handler passes it to IdempotentRequests (POST).
 */
export const ReadsKeyUseWithCredential = (path: string) => SetMetadata(READS_KEY_USE_WITH_CREDENTIAL, path);

export const REFUSALS_KEPT_FOR_KEY = 'refusals_kept_for_key';
/** Where an endpoint keeps a refusal of the guard's for the request's Idempotency-Key. */
export interface RefusalsKeptForKey {
  /** The idempotency scope's path, as the handler passes it to IdempotentRequests. */
  path: string;
  /** A resource id to claim the key with, as the handler would have. */
  newResourceId: () => string;
}
/**
 * Create Payout (spec 4.2, rule 4: a rejected create stays rejected for its key): a refusal the
 * guard decides (scope, approval, payouts switch) is kept for the key like the handler's own.
 */
export const KeepsRefusalsForKey = (kept: RefusalsKeptForKey) => SetMetadata(REFUSALS_KEPT_FOR_KEY, kept);

export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): PayoutPrincipal => {
    const request = context.switchToHttp().getRequest<{ principal?: PayoutPrincipal }>();
    if (!request.principal) throw new Error('PayoutAuthGuard did not run');
    return request.principal;
  },
);
