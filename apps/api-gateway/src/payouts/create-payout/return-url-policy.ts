import { Injectable } from '@nestjs/common';
import { originOf } from '@payouts/accounts';
import { ApiError } from '@payouts/http';
import type { PayoutPrincipal } from '../../auth/payout-principal';

/**
 * `return_url` must match a registered origin exactly: scheme, host and port, no wildcards
 * (docs/design.md#delivery-links-and-expiry).
 */
@Injectable()
export class ReturnUrlPolicy {
  assertRegistered(principal: PayoutPrincipal, returnUrl: string): void {
    const origin = originOf(returnUrl);
    if (!origin || !principal.credential.account.returnUrlOrigins.includes(origin)) {
      throw new ApiError(
        400,
        'return_url_not_registered',
        'return_url must start with an origin registered for this account in the dashboard',
        'return_url',
      );
    }
  }
}
