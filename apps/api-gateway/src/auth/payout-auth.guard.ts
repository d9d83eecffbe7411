import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { AccountsRepository, AuthenticatedCredential, PayoutScope } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { ApiError } from '@payouts/http';
import { accountPreconditionRefusal } from '../payouts/payout-preconditions';
import { authenticateBearer } from './bearer-credential';
import { ACCOUNTS } from '../gateway.tokens';
import {
  DEFERS_PRECONDITION_REFUSALS,
  Prefetch,
  PREFETCH,
  PayoutPrincipal,
  REQUIRED_SCOPE,
} from './payout-principal';
import { RateLimiter } from './rate-limiter';

/**
 * Payout endpoints (docs/design.md#credentials-and-scopes): the credential (authenticateBearer:
 * kind, environment, look-up, rate limit), then the endpoint's scope and the account's two
 * switches, on every request.
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
      routeOptions: { url: string | undefined };
      headers: Record<string, string | undefined>;
      params?: Record<string, string>;
      principal?: PayoutPrincipal;
    }>();
    const prefetched = this.startPrefetch(context, request.params ?? {});
    const { credential, environment } = await authenticateBearer(
      'payout',
      request,
      this.accounts,
      this.limiter,
    );

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

/**
 * The three preconditions of every request (docs/design.md#credentials-and-scopes), each with its
 * own code.
 */
function preconditionRefusal(
  credential: AuthenticatedCredential,
  scope: PayoutScope | undefined,
): ApiError | undefined {
  if (scope && !credential.scopes.includes(scope)) {
    return new ApiError(403, 'insufficient_scope', `this endpoint needs the ${scope} scope`);
  }
  return accountPreconditionRefusal(credential.account);
}
