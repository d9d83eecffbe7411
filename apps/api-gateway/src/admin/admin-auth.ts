import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { ApiError } from '@payouts/http';
import { bearerToken } from '../auth/bearer-credential';
import { ACCOUNTS } from '../gateway.tokens';

const unauthenticated = (who: string) =>
  new ApiError(401, 'unauthenticated', `send the ${who} token as Authorization: Bearer <token>`);

interface AdminRequest {
  headers: Record<string, string | undefined>;
  adminAccountId?: string;
}

/**
 * The operator's API. A guard, so the token is checked before any pipe reads the body: a caller
 * without it learns nothing about what a valid request looks like (401, never a 400 with `param`).
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    assertOperator(context.switchToHttp().getRequest<AdminRequest>().headers.authorization, this.config);
    return true;
  }
}

/**
 * Throws 401 `unauthenticated` unless the Authorization header carries OPERATOR_TOKEN (never
 * when it is unset), or during a rotation OPERATOR_TOKEN_PREVIOUS. Compares digests, both of them
 * every time, so neither timing nor length says anything about either.
 */
export function assertOperator(
  authorization: string | undefined,
  config: Pick<AppConfig, 'operatorToken' | 'operatorTokenPrevious'>,
): void {
  const token = bearerToken(authorization);
  const operatorToken = config.operatorToken;
  if (!token || !operatorToken) throw unauthenticated('operator');
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const given = digest(token);
  const current = timingSafeEqual(given, digest(operatorToken));
  const previous = timingSafeEqual(given, digest(config.operatorTokenPrevious ?? operatorToken));
  if (!current && !previous) throw unauthenticated('operator');
}

/** The dashboard's APIs: the account's admin token, checked before any pipe reads the body. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(@Inject(ACCOUNTS) private readonly accounts: AccountsRepository) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const token = bearerToken(request.headers.authorization);
    if (!token || !token.startsWith('adm_')) throw unauthenticated('account administrator');
    const admin = await this.accounts.authenticateAdmin(token);
    if (!admin) throw new ApiError(401, 'unauthenticated', 'unknown admin token');
    request.adminAccountId = admin.accountId;
    return true;
  }
}

/** The account whose admin token `AdminGuard` accepted. */
export const AdminAccount = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const accountId = context.switchToHttp().getRequest<AdminRequest>().adminAccountId;
  if (accountId === undefined) throw new Error('AdminAccount used on a route without AdminGuard');
  return accountId;
});
