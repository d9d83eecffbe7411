import { createParamDecorator, ExecutionContext, SetMetadata, Type } from '@nestjs/common';
import type { AuthenticatedCredential, PayoutScope } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';
import type { ApiError } from '@payouts/http';

/** Who is calling a payout endpoint, attached to the request by PayoutAuthGuard. */
export interface PayoutPrincipal {
  accountId: string;
  environment: Environment;
  credentialId: string;
  credential: AuthenticatedCredential;
  /**
   * On a route marked DefersPreconditionRefusals: the refusal of the account and scope checks,
   * which the route keeps for the request's Idempotency-Key before it answers it. Undefined when
   * the checks passed (and on every other route, where the guard refuses itself).
   */
  refusal?: ApiError;
  /** On a route marked PrefetchedBesideCredential: its read, started with the credential look-up. */
  prefetched?: Promise<unknown>;
}

export const REQUIRED_SCOPE = 'required_scope';
/**
 * The scope an endpoint needs (docs/design.md#credentials-and-scopes): payouts:read for GET,
 * payouts:write for POST.
 */
export const RequiresScope = (scope: PayoutScope) => SetMetadata(REQUIRED_SCOPE, scope);

export const DEFERS_PRECONDITION_REFUSALS = 'defers_precondition_refusals';
/**
 * Create Payout (docs/design.md#idempotency: a rejected create stays rejected for its key): the guard hands
 * its refusal of scope, approval or payouts switch to the route, which keeps it for the key.
 */
export const DefersPreconditionRefusals = () => SetMetadata(DEFERS_PRECONDITION_REFUSALS, true);

/** A read a route needs whoever calls, and the provider that makes it. */
export interface Prefetch<Provider> {
  readonly provider: Type<Provider>;
  start(provider: Provider, params: Readonly<Record<string, string>>): Promise<unknown>;
}

export const PREFETCH = 'prefetch';
/**
 * Get Payout: its read is started by the guard in the same turn as the credential look-up, so the
 * two statements go to the database together (one round trip where there were two one after the
 * other). The read must not depend on the caller (a payout by its id); the route compares what it
 * found with the principal, and a failed authentication discards it unseen.
 */
export const PrefetchedBesideCredential = <Provider>(prefetch: Prefetch<Provider>) =>
  SetMetadata(PREFETCH, prefetch);

export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): PayoutPrincipal => {
    const request = context.switchToHttp().getRequest<{ principal?: PayoutPrincipal }>();
    if (!request.principal) throw new Error('PayoutAuthGuard did not run');
    return request.principal;
  },
);
