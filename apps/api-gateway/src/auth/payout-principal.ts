import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { AuthenticatedCredential, PayoutScope } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';

/** Who is calling a payout endpoint, attached to the request by PayoutAuthGuard. */
export interface PayoutPrincipal {
  accountId: string;
  environment: Environment;
  credentialId: string;
  credential: AuthenticatedCredential;
}

export const REQUIRED_SCOPE = 'required_scope';
/** The scope an endpoint needs (spec 5.4): payouts:read for GET, payouts:write for POST. */
export const RequiresScope = (scope: PayoutScope) => SetMetadata(REQUIRED_SCOPE, scope);

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
