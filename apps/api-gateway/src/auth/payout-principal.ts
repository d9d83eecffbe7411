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

export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): PayoutPrincipal => {
    const request = context.switchToHttp().getRequest<{ principal?: PayoutPrincipal }>();
    if (!request.principal) throw new Error('PayoutAuthGuard did not run');
    return request.principal;
  },
);
