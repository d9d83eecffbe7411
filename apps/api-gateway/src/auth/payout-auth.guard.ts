import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { parseTokenPrefix } from '@payouts/accounts';
import type {
  AccountsRepository,
  AuthenticatedCredential,
  PayoutScope,
  ReadBesideCredential,
} from '@payouts/accounts';
import { IDEMPOTENCY_KEY_PATTERN, KEY_USE_BESIDE_CREDENTIAL_SQL } from '@payouts/idempotency';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { ApiError } from '@payouts/http';
import { PAYOUT_VIEW_BESIDE_CREDENTIAL_SQL } from '@payouts/read-models';
import type { PayoutMerchantView } from '@payouts/read-models';
import { ACCOUNTS } from '../gateway.tokens';
import { IdempotentRequests } from '../idempotency/idempotent-requests';
import { PAYOUT_ID } from '../payouts/payout-id';
import {
  PayoutPrincipal,
  READS_KEY_USE_WITH_CREDENTIAL,
  READS_PAYOUT_WITH_CREDENTIAL,
  REFUSALS_KEPT_FOR_KEY,
  RefusalsKeptForKey,
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
    private readonly idempotent: IdempotentRequests,
  ) {
    this.limiter = new RateLimiter(config.rateLimit.perSecond, config.rateLimit.burst);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{
      url: string;
      headers: Record<string, string | undefined>;
      body?: unknown;
      params?: Record<string, string | undefined>;
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
    const beside = this.besideRead(context.getHandler(), request);
    const { credential, besideRow } = await this.lookUp(token, beside?.read);
    if (!credential) throw unauthenticated();
    const retryAfterSeconds = this.limiter.take(credential.credentialId);
    if (retryAfterSeconds > 0) {
      throw new ApiError(429, 'rate_limited', 'too many requests for this credential; slow down', undefined, {
        'Retry-After': String(retryAfterSeconds),
      });
    }

    const scope = this.reflector.get<PayoutScope | undefined>(REQUIRED_SCOPE, context.getHandler());
    const refusal = preconditionRefusal(credential, scope);
    if (refusal) {
      const kept = this.reflector.get<RefusalsKeptForKey | undefined>(
        REFUSALS_KEPT_FOR_KEY,
        context.getHandler(),
      );
      if (kept) {
        await this.idempotent.keepRefusal(
          { accountId: credential.accountId, environment },
          { method: 'POST', path: kept.path, key: request.headers['idempotency-key'], body: request.body },
          kept.newResourceId(),
          refusal,
        );
      }
      throw refusal;
    }
    request.principal = {
      accountId: credential.accountId,
      environment,
      credentialId: credential.credentialId,
      credential,
      ...(beside ? beside.into(besideRow) : {}),
    };
    return true;
  }

  /**
   * What this route reads beside the credential, in its statement: on Get Payout the payout, on
   * Create Payout whether the Idempotency-Key has a row. Only values of the forms the service
   * accepts ride in that statement, which the requests of one turn share: any other payout id is
   * no payout (404, checkedPayoutId) and any other key is refused (400) before it is looked up.
   */
  private besideRead(
    handler: ReturnType<ExecutionContext['getHandler']>,
    request: { headers: Record<string, string | undefined>; params?: Record<string, string | undefined> },
  ): { read: ReadBesideCredential; into: (row: unknown) => Partial<PayoutPrincipal> } | undefined {
    if (this.reflector.get<boolean | undefined>(READS_PAYOUT_WITH_CREDENTIAL, handler)) {
      const payoutId = request.params?.payout_id;
      if (payoutId === undefined || !PAYOUT_ID.test(payoutId)) return undefined;
      return {
        read: { sql: PAYOUT_VIEW_BESIDE_CREDENTIAL_SQL, params: [payoutId] },
        into: (row) => ({ payoutReadWithCredential: (row ?? null) as PayoutMerchantView | null }),
      };
    }
    const path = this.reflector.get<string | undefined>(READS_KEY_USE_WITH_CREDENTIAL, handler);
    const key = request.headers['idempotency-key'];
    if (path === undefined || key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key)) return undefined;
    const method = 'POST'; // every payout POST is idempotent, and only POSTs are
    return {
      read: { sql: KEY_USE_BESIDE_CREDENTIAL_SQL, params: [method, path, key] },
      into: (row) => ({ keyUseReadWithCredential: { method, path, key, used: row !== null } }),
    };
  }

  /** The credential, and the route's read beside it (besideRead) in the same statement. */
  private async lookUp(
    token: string,
    beside: ReadBesideCredential | undefined,
  ): Promise<{ credential: AuthenticatedCredential | null; besideRow: unknown }> {
    if (beside === undefined) {
      return { credential: await this.accounts.authenticateCredential(token), besideRow: null };
    }
    const found = await this.accounts.authenticateCredentialWith(token, beside);
    return { credential: found?.credential ?? null, besideRow: found?.beside ?? null };
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
