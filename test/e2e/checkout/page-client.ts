/** A browser-less payer: GETs the hosted page, keeps its CSRF cookie and token, posts the form. */
export interface PageAnswer {
  status: number;
  body: string;
  location: string | null;
  headers: Headers;
}

export class Payer {
  private cookie = '';
  private csrfToken = '';

  constructor(private readonly orderUrl: string) {}

  get url(): string {
    return this.orderUrl;
  }

  /** The CSRF token of the last page this payer saw. */
  get csrf(): string {
    return this.csrfToken;
  }

  /** The Cookie header this payer sends (its CSRF cookie, once a page set it). */
  get cookieHeader(): string {
    return this.cookie;
  }

  async open(): Promise<PageAnswer> {
    const response = await fetch(this.orderUrl, { redirect: 'manual', headers: this.headers() });
    return this.read(response);
  }

  async submit(fields: Record<string, string>, options: { csrf?: string | null } = {}): Promise<PageAnswer> {
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    const form = new URLSearchParams({ ...fields, ...(csrf === null ? {} : { csrf_token: csrf }) });
    const response = await fetch(this.orderUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    return this.read(response);
  }

  payByCard(number: string, expiry = '12/34') {
    return this.submit({ card_number: number, expiry, security_code: '123', name_on_card: 'Ana Payer' });
  }

  payByWallet(account: string) {
    return this.submit({ wallet_account: account });
  }

  private headers(): Record<string, string> {
    return this.cookie ? { cookie: this.cookie } : {};
  }

  private async read(response: Response): Promise<PageAnswer> {
    const body = await response.text();
    const cookie = response.headers.get('set-cookie');
    if (cookie) this.cookie = cookie.split(';')[0]!;
    const token = /name="csrf_token" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrfToken = token;
    return {
      status: response.status,
      body,
      location: response.headers.get('location'),
      headers: response.headers,
    };
  }
}
