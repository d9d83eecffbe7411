import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { parseTokenPrefix } from '@payouts/accounts';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { ApiError } from '@payouts/http';
import { APP_CONFIG } from '@payouts/platform';
import { bearerToken } from '../auth/payout-auth.guard';
import { RateLimiter } from '../auth/rate-limiter';
import { environmentOfPath } from '../auth/request-environment';
import { ACCOUNTS } from '../gateway.tokens';
import type { CheckoutPrincipal } from './checkout-principal';

const unauthenticated = () =>
  new ApiError(401, 'unauthenticated', 'send a valid checkout API key as Authorization: Bearer <API_KEY>');

/**
 * Checkout endpoints (spec 5.1, ARCHITECTURE 6): the token's prefix names its kind and
 * environment, so a payout credential (403 wrong_credential_kind) or a key of the other
 * environment (403 wrong_environment) is refused before any look-up; then the key is looked up
 * (no cache: a revocation counts from the next request) and rate limited like payout credentials.
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
      url: string;
      headers: Record<string, string | undefined>;
      checkoutPrincipal?: CheckoutPrincipal;
    }>();
    const environment = environmentOfPath(request.url);
    const token = bearerToken(request.headers.authorization);
    const prefix = token ? parseTokenPrefix(token) : null;
    if (!token || !prefix || prefix.kind === 'admin') throw unauthenticated();
    if (prefix.environment !== environment) {
      throw new ApiError(
        403,
        'wrong_environment',
        `this key belongs to ${prefix.environment}, not ${environment}`,
      );
    }
    if (prefix.kind !== 'checkout') {
      throw new ApiError(
        403,
        'wrong_credential_kind',
        'a payout credential cannot be used for checkout; use a checkout API key',
      );
    }
    const credential = await this.accounts.authenticateCredential(token);
    if (!credential) throw unauthenticated();
    const retryAfterSeconds = this.limiter.take(credential.credentialId);
    if (retryAfterSeconds > 0) {
      throw new ApiError(429, 'rate_limited', 'too many requests for this key; slow down', undefined, {
        'Retry-After': String(retryAfterSeconds),
      });
    }
    request.checkoutPrincipal = {
      accountId: credential.accountId,
      environment,
      credentialId: credential.credentialId,
      credential,
    };
    return true;
  }
}
