import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { authenticateBearer } from '../auth/bearer-credential';
import { RateLimiter } from '../auth/rate-limiter';
import { ACCOUNTS } from '../gateway.tokens';
import type { CheckoutPrincipal } from './checkout-principal';

/**
 * Checkout endpoints (docs/design.md#paths-and-methods): a checkout key of the path's environment
 * (authenticateBearer).
 */
@Injectable()
export class CheckoutAuthGuard implements CanActivate {
  private readonly limiter: RateLimiter;

  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limiter = new RateLimiter(config.rateLimit.perSecond, config.rateLimit.burst);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{
      routeOptions: { url: string | undefined };
      headers: Record<string, string | undefined>;
      checkoutPrincipal?: CheckoutPrincipal;
    }>();
    const { credential, environment } = await authenticateBearer(
      'checkout',
      request,
      this.accounts,
      this.limiter,
    );
    request.checkoutPrincipal = {
      accountId: credential.accountId,
      environment,
      credentialId: credential.credentialId,
      credential,
    };
    return true;
  }
}
