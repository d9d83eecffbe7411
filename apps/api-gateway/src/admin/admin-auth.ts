import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@payouts/platform';
import { bearerToken } from '../auth/payout-auth.guard';

const unauthenticated = (who: string) =>
  new ApiError(401, 'unauthenticated', `send the ${who} token as Authorization: Bearer <token>`);

/** Compares digests, so neither timing nor length says anything about the operator token. */
export function assertOperator(authorization: string | undefined, operatorToken: string | undefined): void {
  const token = bearerToken(authorization);
  if (!token || !operatorToken) throw unauthenticated('operator');
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (!timingSafeEqual(digest(token), digest(operatorToken))) throw unauthenticated('operator');
}

export function adminTokenOf(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  if (!token || !token.startsWith('adm_')) throw unauthenticated('account administrator');
  return token;
}
