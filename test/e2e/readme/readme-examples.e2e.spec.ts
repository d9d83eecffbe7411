import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { verifyPayoutWebhook } from '@payouts/webhooks';
import { OPERATOR_TOKEN } from '../api/gateway-harness';
import { Payer } from '../checkout/page-client';
import { recipientClient } from '../recipient/recipient-client';
import { RunningApp, startApp, stop, waitFor200 } from '../spawn-app';
import {
  BrowserStep,
  matchesPattern,
  outputsOf,
  patternOf,
  ReadmeScript,
  runnableBlocks,
  scriptOf,
} from './readme-blocks';

const README = join(__dirname, '../../../README.md');
const SCRIPT_TIMEOUT_MS = 120_000;

/** The sections whose examples must run as written (a marker lost from one of them fails here). */
const SECTIONS = [
  'Checkout',
  'The API',
  'The balance: checkout proceeds, payouts and settlements',
  'Payout webhooks',
];

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface ScriptRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** What went wrong as the script ran: failed requests, failed browser steps, a timeout. */
  problems: string[];
  blocksStarted: string[];
  stepsDone: number[];
  finished: boolean;
}

/**
 * The README's examples (the ```bash blocks marked "Runs as written in …"), run as written with
 * bash, curl and jq against the built embedded start (`npm start`), one terminal session for all
 * of them as a reader would; the browser steps they name (paying on the hosted checkout page, the
 * recipient's claim with the e-mailed code) done between their lines with the pages' own forms.
 * Every request must succeed and every `#   → …` line must match what the service printed.
 */
describe("the README's examples, run as written", () => {
  let dataDir: string;
  let app: RunningApp;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let readme: ReadmeScript;
  let run: ScriptRun;

  beforeAll(async () => {
    for (const tool of ['bash', 'curl', 'jq']) {
      try {
        execFileSync(tool, ['--version'], { stdio: 'ignore' });
      } catch {
        throw new Error(`the README's examples need ${tool} on PATH`);
      }
    }
    dataDir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    if (typeof address !== 'object' || !address) throw new Error('no receiver address');
    receiverUrl = `http://127.0.0.1:${address.port}/webhooks/payouts`;

    app = await startApp('all-in-one', {
      DATA_DIR: join(dataDir, 'data'),
      OPERATOR_TOKEN,
      LOG_LEVEL: 'warn',
      RAIL_SIMULATOR_DELAY_MS: '100',
      // The webhooks block's receiver is this test's, on loopback.
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    });
    await waitFor200(app, '/health/ready');
  }, 90_000);

  afterAll(async () => {
    if (app) await stop(app);
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('marks a block in each section that has examples, and only code a reader can run', () => {
    const blocks = runnableBlocks(readFileSync(README, 'utf8'));
    expect(blocks.map((block) => block.section)).toEqual(SECTIONS);
    const offending = blocks.flatMap((block) =>
      block.lines.flatMap((line, index) => {
        if (line.trimStart().startsWith('#')) return [];
        const code = line.replace(/\s+#\s.*$/, '').replace('${BASE_URL:-http://localhost:3000}', '$B');
        // The service is $B, so BASE_URL moves every example (as this test does); ids and tokens
        // are captured into variables, never placeholders for the reader to fill in.
        return /localhost|…/.test(code) ? [`README line ${block.line + index}: ${line}`] : [];
      }),
    );
    expect(offending).toEqual([]);
    readme = scriptOf(blocks);
  });

  it(
    'runs every marked block without a failed request, doing its browser steps',
    async () => {
      expect(readme).toBeDefined();
      run = await runScript(readme);
      if (run.problems.length > 0 || run.exitCode !== 0 || !run.finished) {
        throw new Error(
          `${run.problems.join('\n')}\nexit code ${run.exitCode}\n--- stderr\n${run.stderr}\n` +
            `--- stdout\n${run.stdout}\n--- app\n${app.output().slice(-4000)}`,
        );
      }
      expect(run.blocksStarted).toEqual(SECTIONS);
      expect(run.stepsDone).toEqual(readme.steps.map((step) => step.id));
    },
    SCRIPT_TIMEOUT_MS + 10_000,
  );

  it('prints what every "→" line says, to the figure', () => {
    expect(run?.finished).toBe(true);
    const outputs = outputsOf(run.stdout);
    const port = new URL(app.url).port;
    const mismatches = readme.expectations.flatMap((expectation) => {
      const output = outputs.get(expectation.id);
      const pattern = expectation.pattern.replaceAll('http://localhost:3000', `http://localhost:${port}`);
      return output !== undefined && matchesPattern(pattern, output)
        ? []
        : [
            `README line ${expectation.line}: ${expectation.command}\n  expected ${pattern}\n  printed  ${output}`,
          ];
    });
    expect(mismatches).toEqual([]);
    // The figures the merchant's day promises are among them (so the check above is not empty).
    const day = readme.expectations
      .filter((e) => e.section === SECTIONS[2])
      .map((e) => e.pattern)
      .join('\n');
    for (const figure of [
      '"pending":"96.80"',
      '"available_for_new_commitments":"96.80"',
      '"amount":"19.70"',
      '"available_for_new_commitments":"66.30","merchant_settlement_holds":"0.00","customer_payout_holds":"30.50"',
      '"customer_payouts_settled":"30.50"',
      '"amount":"56.30"',
      '["settlement","-56.30"]',
      '"available_for_new_commitments":"10.00"',
    ]) {
      expect(day).toContain(figure);
    }
    expect(readme.expectations.length).toBeGreaterThanOrEqual(20);
  });

  it("delivers the webhooks block's test event and the refund's resent payout.updated, signed with the secret it printed", () => {
    expect(run?.finished).toBe(true);
    const outputs = outputsOf(run.stdout);
    const saved = readme.expectations.find((e) => e.section === SECTIONS[3] && e.command.includes('-XPUT'));
    const secret = (JSON.parse(outputs.get(saved!.id)!) as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    const bodies = received.map((r) => {
      const signature = r.headers['x-service-payout-signature'];
      verifyPayoutWebhook(r.body, typeof signature === 'string' ? signature : undefined, secret);
      return JSON.parse(r.body.toString('utf8')) as { type: string; data: Record<string, unknown> };
    });
    expect(bodies.map((body) => body.type)).toEqual(['payout.test', 'payout.updated']);
    expect(bodies[1]!.data).toMatchObject({
      status: 'paid',
      amount: '30.00',
      fee: '0.50',
      merchant_reference: 'refund-1',
    });
  });

  /** Runs the script with bash; does its browser steps; stops it at its first failed request. */
  async function runScript(script: ReadmeScript): Promise<ScriptRun> {
    const path = join(dataDir, 'readme-examples.sh');
    writeFileSync(path, script.script);
    const child = spawn('bash', [path], {
      cwd: dataDir,
      detached: true, // its own process group, so a timeout stops its curl and sleep too
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dataDir,
        BASE_URL: app.url,
        OPERATOR_TOKEN,
        WEBHOOK_URL: receiverUrl,
      },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    const result: ScriptRun = {
      exitCode: null,
      stdout: '',
      stderr: '',
      problems: [],
      blocksStarted: [],
      stepsDone: [],
      finished: false,
    };
    child.stdin!.on('error', () => undefined); // bash may be gone before an answer arrives
    child.stdout!.on('data', (chunk: Buffer) => (result.stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (result.stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const timer = setTimeout(() => {
      result.problems.push(`the examples did not finish in ${SCRIPT_TIMEOUT_MS} ms`);
      stopGroup(child);
    }, SCRIPT_TIMEOUT_MS);

    const messages = createInterface({ input: child.stdio[3] as Readable });
    for await (const message of messages) {
      const [kind, ...fields] = message.split('\t');
      if (kind === 'block') result.blocksStarted.push(fields[0]!);
      else if (kind === 'done') result.finished = true;
      else if (kind === 'curl-failed') {
        result.problems.push(`curl exited ${fields[0]}: curl ${fields[1]}`);
        stopGroup(child);
      } else if (kind === 'browser') {
        const step = script.steps[Number(fields[0])]!;
        try {
          await browserStep(step, new Map(step.variables.map((name, i) => [name, fields[i + 1] ?? ''])));
          result.stepsDone.push(step.id);
          child.stdin!.write('ok\n');
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          result.problems.push(`README line ${step.line}, in a browser: ${step.text}\n  ${reason}`);
          child.stdin!.write(`${reason.split('\n')[0]}\n`);
        }
      } else result.problems.push(`unexpected message from the script: ${message}`);
    }
    result.exitCode = await exited;
    clearTimeout(timer);
    return result;
  }

  function stopGroup(child: ChildProcess): void {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  }

  /** What a person does in the browser, as the README says it, with the pages' own forms. */
  async function browserStep(step: BrowserStep, values: Map<string, string>): Promise<void> {
    const url = (name: string) => {
      const value = values.get(name);
      if (!value?.startsWith('http')) throw new Error(`$${name} is not a URL: ${value}`);
      // The service's links name its public base URL; this test reaches the app directly.
      return value.replace(/^https?:\/\/[^/]+/, app.url);
    };
    let match = /^open \$([A-Z_]+) and pay with card (\d{4} \d{4} \d{4} \d{4}) \(/.exec(step.text);
    if (match) {
      const payer = new Payer(url(match[1]!));
      expectStatus('the order page', (await payer.open()).status, 200);
      expectStatus('paying', (await payer.payByCard(match[2]!.replaceAll(' ', ''))).status, 303);
      return;
    }
    match = /^open \$([A-Z_]+) and pay with wallet account (\S+?)\.$/.exec(step.text);
    if (match) {
      const payer = new Payer(url(match[1]!));
      expectStatus('the order page', (await payer.open()).status, 200);
      expectStatus('paying', (await payer.payByWallet(match[2]!)).status, 303);
      return;
    }
    match = /^open \$([A-Z_]+), have the code sent, enter it, choose wallet (\S+) and confirm\.$/.exec(
      step.text,
    );
    if (match) {
      const { open, post } = recipientClient(() => app.url);
      const { cookie, csrf } = await open(url(match[1]!));
      const form = (fields: Record<string, string>) => ({ csrf_token: csrf, ...fields });
      expectStatus('send code', (await post('/sandbox/recipient/send-code', cookie, form({}))).status, 303);
      const code = newestMailboxCode();
      expectStatus('verify', (await post('/sandbox/recipient/verify', cookie, form({ code }))).status, 303);
      const details = form({ method: 'wallet', wallet_handle: match[2]! });
      expectStatus('details', (await post('/sandbox/recipient/details', cookie, details)).status, 303);
      expectStatus('confirm', (await post('/sandbox/recipient/confirm', cookie, form({}))).status, 303);
      return;
    }
    throw new Error('this test does not know how to do that step: teach browserStep');
  }

  /** The code of the newest e-mail, where the README says it is: DATA_DIR/mailbox, one JSON file each. */
  function newestMailboxCode(): string {
    const folder = join(dataDir, 'data', 'mailbox');
    const newest = readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .pop();
    if (!newest) throw new Error(`no e-mail in ${folder}`);
    const code = /code is (\d{6})/.exec(readFileSync(join(folder, newest), 'utf8'))?.[1];
    if (!code) throw new Error(`no code in ${newest}`);
    return code;
  }
});

function expectStatus(what: string, status: number, expected: number): void {
  if (status !== expected) throw new Error(`${what}: HTTP ${status}, expected ${expected}`);
}

describe('reading the README\'s "→" lines', () => {
  it('takes the text up to two spaces as the pattern, and "…" as any text', () => {
    expect(patternOf('{"a":"b…"}   (shown once)')).toBe('{"a":"b…"}');
    expect(matchesPattern('{"a":"b…"}', '{"a":"bcd"}')).toBe(true);
    expect(matchesPattern('{…"pending":"96.80",…}', '{"x":1,"pending":"96.80","y":2}')).toBe(true);
    expect(matchesPattern('{…"pending":"96.80",…}', '{"x":1,"pending":"0.00","y":2}')).toBe(false);
    // The pieces come in order, the first at the start and the last at the end.
    expect(matchesPattern('{"a":1,…,"b":2}', '{"b":2,"a":1}')).toBe(false);
    expect(matchesPattern('{"a":1,…}', ' {"a":1,"b":2}')).toBe(false);
    expect(matchesPattern('…"b":2}', '{"a":1,"b":2} ')).toBe(false);
    expect(matchesPattern('[1,2]', '[1,2]')).toBe(true);
    expect(matchesPattern('[1,2]', '[1,2,3]')).toBe(false);
  });
});
