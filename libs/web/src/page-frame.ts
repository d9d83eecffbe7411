/** The two environments of an account: the same values as the API's `environment`. */
export type PageEnvironment = 'production' | 'sandbox';

/**
 * What every signed-in page needs from the session: who is signed in, which environment the
 * pages show, and the CSRF token its forms carry. The app builds it once per request.
 */
export interface PageFrame {
  accountName: string;
  environment: PageEnvironment;
  csrfToken: string;
  /** The account's time zone (an IANA name): every time on the page is shown in it. */
  timeZone: string;
}
