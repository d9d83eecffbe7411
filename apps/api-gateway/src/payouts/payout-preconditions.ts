import { ApiError } from '@payouts/http';

/** The account's two payout switches in one environment (AuthenticatedCredential's `account`). */
export interface PayoutSwitches {
  payoutsApproved: boolean;
  payoutsEnabled: boolean;
}

/**
 * The account's preconditions of every payout request (docs/design.md#credentials-and-scopes):
 * approved for payouts by the operator, then payouts switched on by the administrator, each with
 * its own code. The payout guard checks them after the credential's scope; the dashboard's Send
 * payouts pages, whose signed-in administrator needs no scope, check them alone.
 */
export function accountPreconditionRefusal(account: PayoutSwitches): ApiError | undefined {
  if (!account.payoutsApproved) {
    return new ApiError(403, 'payouts_not_approved', 'the account is not approved for payouts yet');
  }
  if (!account.payoutsEnabled) {
    return new ApiError(
      403,
      'payouts_disabled',
      'payouts are switched off for this account in the dashboard',
    );
  }
  return undefined;
}
