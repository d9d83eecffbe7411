import { request } from 'node:http';

export interface PageAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The Set-Cookie lines of this answer. */
  setCookies: string[];
}

/**
 * A minimal browser over real HTTP for the dashboard's pages: a cookie jar, form posts and no
 * redirect following (each answer is checked as sent). `localAddress` picks the client address
 * the gateway sees (127.0.0.x on loopback), for the per-address lockout.
 */
export class PageBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly localAddress = '127.0.0.1',
    /** Sent with every request (e.g. the X-Forwarded-For a reverse proxy adds). */
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  get(path: string): Promise<PageAnswer> {
    return this.send('GET', path);
  }

  post(path: string, fields: Record<string, string>): Promise<PageAnswer> {
    return this.send('POST', path, new URLSearchParams(fields).toString());
  }

  /** The CSRF token the page's forms carry (the first form's). */
  static csrfToken(page: PageAnswer): string {
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    if (!token) throw new Error(`no CSRF token in the page (status ${page.status})`);
    return token;
  }

  /** Fetches the page at `path` and posts `fields` with its CSRF token, as a browser would. */
  async submit(pagePath: string, action: string, fields: Record<string, string>): Promise<PageAnswer> {
    const page = await this.get(pagePath);
    return this.post(action, { ...fields, _csrf: PageBrowser.csrfToken(page) });
  }

  private send(method: string, path: string, body?: string): Promise<PageAnswer> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { ...this.extraHeaders };
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method,
          headers,
          localAddress: this.localAddress,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const setCookies = response.headers['set-cookie'] ?? [];
            for (const line of setCookies) this.remember(line);
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
              setCookies,
            });
          });
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  private remember(line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const expired = attributes.some(
      (attribute) =>
        /^max-age=0$/i.test(attribute) ||
        (/^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) <= Date.now()),
    );
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** The Set-Cookie line of `name` in an answer. */
export function setCookieLine(page: PageAnswer, name: string): string | undefined {
  return page.setCookies.find((line) => line.startsWith(`${name}=`));
}
