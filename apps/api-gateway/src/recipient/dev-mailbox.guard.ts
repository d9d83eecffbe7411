import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { notFound } from '@payouts/http';
import { assertOperator } from '../admin/admin-auth';

/**
 * The development mailbox holds every e-mailed verification code. Unless DEV_MAILBOX switched it
 * on (configuration refuses that with DATABASE_URL or SMTP_URL), it does not exist: 404 like any
 * unknown path, to everyone. When on, it answers the operator token only (401 otherwise).
 */
@Injectable()
export class DevMailboxGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    // DATABASE_URL again, though configuration already refuses it with DEV_MAILBOX: never there.
    if (!this.config.devMailbox || this.config.databaseUrl) throw notFound('endpoint');
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    assertOperator(request.headers.authorization, this.config);
    return true;
  }
}
