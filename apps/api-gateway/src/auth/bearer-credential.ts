import type { AccountsRepository, AuthenticatedCredential, CredentialKind } from '@payouts/accounts';
import { parseTokenPrefix } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import type { RateLimiter } from './rate-limiter';
import { environmentOfRoute } from './request-environment';

const WRONG_KIND: Record<CredentialKind, string> = {
  payout: 'a checkout key cannot be used for payouts; use a payout credential',
  checkout: 'a payout credential cannot be used for checkout; use a checkout API key',
};

const SEND: Record<CredentialKind, string> = {
  payout: 'send a valid payout credential as Authorization: Bearer <token>',
  checkout: 'send a valid checkout API key as Authorization: Bearer <API_KEY>',
};

/**
 * Authentication of both kinds of credential (docs/design.md#credentials-and-scopes): the token's
 * prefix names its kind and environment, so a credential of the other kind (403
 * wrong_credential_kind) or environment (403 wrong_environment) is refused before any look-up; then
 * it is looked up (no cache: a revocation counts from the next request) and rate limited per
 * credential.
 */
export async function authenticateBearer(
  kind: CredentialKind,
  request: { routeOptions: { url: string | undefined }; headers: Record<string, string | undefined> },
  accounts: AccountsRepository,
  limiter: RateLimiter,
): Promise<{ credential: AuthenticatedCredential; environment: Environment }> {
  const unauthenticated = () => new ApiError(401, 'unauthenticated', SEND[kind]);
  const environment = environmentOfRoute(request);
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
  if (prefix.kind !== kind) throw new ApiError(403, 'wrong_credential_kind', WRONG_KIND[kind]);
  const credential = await accounts.authenticateCredential(token);
  if (!credential) throw unauthenticated();
  const retryAfterSeconds = limiter.take(credential.credentialId);
  if (retryAfterSeconds > 0) {
    throw new ApiError(429, 'rate_limited', 'too many requests for this credential; slow down', undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
  return { credential, environment };
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([\x21-\x7E]{1,512})$/.exec(header ?? '');
  return match?.[1];
}
