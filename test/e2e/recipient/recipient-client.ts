import { OPERATOR_TOKEN } from '../api/gateway-harness';

/**
 * The recipient's browser as plain HTTP, for tests: follows a payout URL to the pages' session
 * cookie and CSRF token, and posts their forms. `gatewayUrl` is read on each call, so a suite can
 * create this before its gateway listens.
 */
export function recipientClient(gatewayUrl: () => string) {
  /** A payout URL as the service printed it (its public base URL), pointed at this gateway. */
  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, gatewayUrl());

  /** Opens the claim link or handoff; returns the session cookie and the page's CSRF token. */
  async function open(payoutUrl: string) {
    const entered = await fetch(local(payoutUrl), { redirect: 'manual' });
    expect(entered.status).toBe(303);
    const cookie = entered.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${gatewayUrl()}/sandbox/recipient`, { headers: { cookie } });
    const html = await page.text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    return { entered, cookie, page, html, csrf: csrf! };
  }

  /** A form post from the pages, with the page session's cookie when there is one. */
  const post = (path: string, cookie: string | undefined, form: Record<string, string>) =>
    fetch(gatewayUrl() + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(form).toString(),
    });

  /**
   * The code in the newest e-mail to `email` in the development mailbox (embedded start, no SMTP,
   * DEV_MAILBOX=true), read as the operator: the only one it answers.
   */
  async function codeFor(email: string): Promise<string> {
    const asOperator = { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } };
    const list = await (await fetch(`${gatewayUrl()}/dev/mailbox`, asOperator)).text();
    const to = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const id = new RegExp(`href="/dev/mailbox/([^"]+)">[^<]*</a>\\s*to ${to}\\s`).exec(list)?.[1];
    expect(id).toBeDefined();
    const message = await (await fetch(`${gatewayUrl()}/dev/mailbox/${id}`, asOperator)).text();
    return /Your verification code is (\d{6})\./.exec(message)![1]!;
  }

  return { local, open, post, codeFor };
}
