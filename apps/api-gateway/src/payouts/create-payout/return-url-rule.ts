import { isURL } from 'class-validator';

type IsUrlOptions = NonNullable<Parameters<typeof isURL>[1]>;

/**
 * What Create Payout accepts as a `return_url` (the `IsUrl` options of CreatePayoutDto.return_url;
 * create-payout.dto.unit.spec.ts fails if the two differ). The dashboard refuses to register an
 * origin whose URLs this rule refuses, since such an origin could never be used.
 */
export const RETURN_URL_OPTIONS: IsUrlOptions = {
  require_tld: false,
  require_protocol: true,
  protocols: ['http', 'https'],
};

/** True when Create Payout would accept `url` as a return_url (before the registered-origin check). */
export function isAcceptedReturnUrl(url: string): boolean {
  // A copy: validator.js writes its defaults into the options object it is given (never into its arrays).
  return isURL(url, { ...RETURN_URL_OPTIONS });
}
