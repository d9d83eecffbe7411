import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { parseTokenPrefix } from '@payouts/accounts';
import type { AccountsRepository, AuthenticatedCredential, PayoutScope } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { ApiError } from '@payouts/http';
import { ACCOUNTS } from '../gateway.tokens';
import {
  DEFERS_PRECONDITION_REFUSALS,
  Prefetch,
  PREFETCH,
  PayoutPrincipal,
  REQUIRED_SCOPE,
} from './payout-principal';
import { RateLimiter } from './rate-limiter';
import { environmentOfPath } from './request-environment';

const unauthenticated = () =>
  new ApiError(401, 'unauthenticated', 'send a valid payout credential as Authorization: Bearer <token>');

/**
 * Payout endpoints (spec 5): the token's prefix names its kind and environment, so a checkout key
 * or a credential of the other environment is refused before any look-up; then the verifier is
 * looked up (no cache: a revocation counts from the next request), the endpoint's scope is
 * checked, and the account's two switches, on every request.
 */
@Injectable()
export class PayoutAuthGuard implements CanActivate {
  private readonly limiter: RateLimiter;

  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly reflector: Reflector,
    private readonly modules: ModuleRef,
  ) {
    this.limiter = new RateLimiter(config.rateLimit.perSecond, config.rateLimit.burst);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{
      url: string;
      headers: Record<string, string | undefined>;
      params?: Record<string, string>;
      principal?: PayoutPrincipal;
    }>();
    const environment = environmentOfPath(request.url);
    const token = bearerToken(request.headers.authorization);
    const prefix = token ? parseTokenPrefix(token) : null;
    if (!token || !prefix || prefix.kind === 'admin') throw unauthenticated();
    if (prefix.environment !== environment) {
      throw new ApiError(
        403,
        'wrong_environment',
        `this credential belongs to ${prefix.environment}, not ${environment}`,
      );
    }
    if (prefix.kind !== 'payout') {
      throw new ApiError(
        403,
        'wrong_credential_kind',
        'a checkout key cannot be used for payouts; use a payout credential',
      );
    }
    const prefetched = this.startPrefetch(context, request.params ?? {});
    // No cache: a revocation counts from the next request.
    const credential = await this.accounts.authenticateCredential(token);
    if (!credential) throw unauthenticated();
    const retryAfterSeconds = this.limiter.take(credential.credentialId);
    if (retryAfterSeconds > 0) {
      throw new ApiError(429, 'rate_limited', 'too many requests for this credential; slow down', undefined, {
        'Retry-After': String(retryAfterSeconds),
      });
    }

    const scope = this.reflector.get<PayoutScope | undefined>(REQUIRED_SCOPE, context.getHandler());
    const refusal = preconditionRefusal(credential, scope);
    const defers = this.reflector.get<boolean | undefined>(
      DEFERS_PRECONDITION_REFUSALS,
      context.getHandler(),
    );
    if (refusal && !defers) throw refusal;
    request.principal = {
      accountId: credential.accountId,
      environment,
      credentialId: credential.credentialId,
      credential,
      ...(refusal ? { refusal } : {}),
      ...(prefetched ? { prefetched } : {}),
    };
    return true;
  }

  /** The route's read, started now so it goes to the database with the credential look-up. */
  private startPrefetch(
    context: ExecutionContext,
    params: Readonly<Record<string, string>>,
  ): Promise<unknown> | undefined {
    const prefetch = this.reflector.get<Prefetch<unknown> | undefined>(PREFETCH, context.getHandler());
    if (!prefetch) return undefined;
    const started = prefetch.start(this.modules.get(prefetch.provider, { strict: false }), params);
    // Discarded unseen when the caller is refused: its failure must not go unhandled then.
    started.catch(() => undefined);
    return started;
  }
}

/** The three preconditions of every request (ARCHITECTURE 3), each with its own code. */
function preconditionRefusal(
  credential: AuthenticatedCredential,
  scope: PayoutScope | undefined,
): ApiError | undefined {
  if (scope && !credential.scopes.includes(scope)) {
    return new ApiError(403, 'insufficient_scope', `this endpoint needs the ${scope} scope`);
  }
  if (!credential.account.payoutsApproved) {
    return new ApiError(403, 'payouts_not_approved', 'the account is not approved for payouts yet');
  }
  if (!credential.account.payoutsEnabled) {
    return new ApiError(
      403,
      'payouts_disabled',
      'payouts are switched off for this account in the dashboard',
    );
  }
  return undefined;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([\x21-\x7E]{1,512})$/.exec(header ?? '');
  return match?.[1];
}
