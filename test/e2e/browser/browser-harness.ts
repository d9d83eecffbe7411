import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';

/** Where every run leaves a screenshot of each page it saw (git-ignored; docs/screenshots has a curated copy). */
export const SCREENSHOT_DIR = join(__dirname, '../../../test-results/screenshots');

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) throw new Error('CHROMIUM_PATH is not set (npm run test:browser sets it)');
  return chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}

/** A phone-sized page: the pages are built for the recipient's phone first. */
export async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  return context.newPage();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP receiver on a free port: the gateway's nodemailer talks to it over SMTP. */
export async function startSmtpReceiver(): Promise<{
  url: string;
  messages: ReceivedMail[];
  codeFor(address: string, nth?: number): Promise<string>;
  close(): Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The code in the `nth` message (from 1) sent to `to`, waiting up to 5 s for it to arrive. */
    async codeFor(to: string, nth = 1): Promise<string> {
      for (let i = 0; i < 100; i += 1) {
        const mine = messages.filter((m) => m.to.includes(to.toLowerCase()));
        const message = mine[nth - 1];
        if (message) {
          const code = /verification code is (\d{6})/.exec(message.raw)?.[1];
          if (!code) throw new Error(`message ${nth} to ${to} holds no code`);
          return code;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no message ${nth} to ${to} within 5 s`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
