import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedCredential } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';

/** Who is calling a checkout endpoint, attached to the request by CheckoutAuthGuard. */
export interface CheckoutPrincipal {
  accountId: string;
  environment: Environment;
  credentialId: string;
  credential: AuthenticatedCredential;
}

export const CheckoutCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CheckoutPrincipal => {
    const request = context.switchToHttp().getRequest<{ checkoutPrincipal?: CheckoutPrincipal }>();
    if (!request.checkoutPrincipal) throw new Error('CheckoutAuthGuard did not run');
    return request.checkoutPrincipal;
  },
);
