import { performance } from 'node:perf_hooks';
import type { Environment } from '@payouts/domain';
import { AttemptResult, postWebhook, REQUEST_TIMEOUT_MS } from '../http-delivery';
import { nextAttemptAfter } from '../schedule';
import { ResolveHost, resolveTarget, TargetPolicy, TargetRefusedError } from '../target-policy';
import type { ClaimedDelivery, DeliveryOutcome, DeliveryQueue } from '../store/delivery-queue';
import { AttemptTarget, CheckoutSecretOf, checkoutTarget, payoutTarget } from './attempt-targets';

export interface SchedulerClock {
  now(environment: Environment): Date;
}

export interface SchedulerOptions {
  /** How often an idle scheduler looks for due deliveries (WEBHOOK_POLL_MS). */
  pollMs: number;
  /** Attempts on the wire at once in this process (WEBHOOK_MAX_IN_FLIGHT). */
  maxInFlight: number;
  policy: TargetPolicy;
  /** Rows per claim; default 100, never more than the free slots. */
  claimBatch?: number;
  /** Default REQUEST_TIMEOUT_MS (10 s, the figure); tests of the client pass less. */
  timeoutMs?: number;
  /** DNS for the targets; default the system resolver. */
  resolve?: ResolveHost;
  /** WEBHOOK_PROXY_URL: every attempt leaves through this forward proxy (http-delivery.ts). */
  proxyUrl?: URL;
  /** Where to report what went wrong; never given a secret. */
  log?: (level: 'warn' | 'error', message: string) => void;
  /**
   * The API secret of a checkout credential, read at send time (AccountsRepository.checkoutSecret):
   * null when the credential is unknown or its secret is gone. Without it, checkout events are
   * not sent (each attempt is logged as failed).
   */
  checkoutSecret?: CheckoutSecretOf;
  /** Told of every attempt made, for the app's metrics (docs/design.md#metrics). */
  observer?: AttemptObserver;
}

/**
 * What an attempt came to: delivered; failed with another attempt scheduled; or failed on the
 * delivery's last attempt (exhausted).
 */
export interface AttemptObserver {
  attempted(kind: 'payout' | 'checkout', outcome: 'delivered' | 'failed' | 'exhausted'): void;
}

/**
 * The lease outlasts an attempt (10 s) by far, so a live dispatcher always finishes and records
 * its attempt before anyone else may take the row; a dead one's attempt is made again after it.
 */
export const LEASE_MS = 30_000;
const DEFAULT_CLAIM_BATCH = 100;
/**
 * How often replaced secrets whose overlap is over are discarded: they stop signing at the
 * attempt itself (attempt-targets.ts), so this only bounds how long the ciphertext stays stored.
 */
export const DISCARD_SECRETS_EVERY_MS = 60_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * Makes due attempts: claims due deliveries (leased, see DeliveryQueue), signs each body (a payout
 * event afresh with the current time; a checkout event with its credential's API secret), checks
 * the target again after DNS resolution and posts to the checked address, then records the
 * attempt and the next one's time (or the end) in batches, each event on its own schedule.
 * Everything it knows is in the database, so a restart picks up where it stopped.
 */
export class DeliveryScheduler {
  private running = false;
  private loop: Promise<void> | undefined;
  private inFlight = 0;
  private readonly attempts = new Set<Promise<void>>();
  private readonly outcomes: DeliveryOutcome[] = [];
  private flushing: Promise<void> | undefined;
  private sleeper: (() => void) | undefined;
  private woken = false;
  private secretsDiscardedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly clock: SchedulerClock,
    /** Decrypts an endpoint's signing secret (throws if it cannot). */
    private readonly secretOf: (endpointId: string, ciphertext: string) => string,
    private readonly options: SchedulerOptions,
  ) {
    if (!Number.isSafeInteger(options.maxInFlight) || options.maxInFlight < 1) {
      throw new RangeError('maxInFlight must be a positive integer');
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for due deliveries at once (after an intake, a test event, a sandbox clock move). */
  wake(): void {
    this.woken = true;
    this.sleeper?.();
  }

  /** Stops claiming, lets the attempts on the wire finish and records them. */
  async stop(): Promise<void> {
    this.running = false;
    this.sleeper?.();
    await this.loop;
    await Promise.all([...this.attempts]);
    while (this.flushing || this.outcomes.length > 0) await this.flush();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const free = this.options.maxInFlight - this.inFlight;
      const batch = Math.min(this.options.claimBatch ?? DEFAULT_CLAIM_BATCH, this.options.maxInFlight);
      // Claims are batches: with attempts on the wire, wait for half a batch of free slots rather
      // than claiming one row per finished attempt (a query per delivery).
      if (free <= 0 || (this.inFlight > 0 && free < Math.ceil(batch / 2))) {
        await this.pause(this.options.pollMs);
        continue;
      }
      const limit = Math.min(free, batch);
      await this.discardExpiredSecrets();
      this.woken = false;
      let claimed: ClaimedDelivery[];
      try {
        claimed = await this.queue.claim({
          now: this.environmentNow(),
          limit,
          leaseMs: LEASE_MS,
        });
        failures = 0;
      } catch (error) {
        failures += 1;
        this.options.log?.('warn', `claiming due webhook deliveries failed: ${messageOf(error)}`);
        await this.pause(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 16)));
        continue;
      }
      for (const delivery of claimed) this.launch(delivery);
      if (claimed.length < limit && !this.woken) await this.pause(this.options.pollMs);
    }
  }

  private async discardExpiredSecrets(): Promise<void> {
    if (Date.now() - this.secretsDiscardedAt < DISCARD_SECRETS_EVERY_MS) return;
    this.secretsDiscardedAt = Date.now();
    try {
      await this.queue.discardExpiredSecrets(this.environmentNow());
    } catch (error) {
      this.options.log?.('warn', `discarding replaced webhook secrets failed: ${messageOf(error)}`);
    }
  }

  private environmentNow(): Record<Environment, Date> {
    return { production: this.clock.now('production'), sandbox: this.clock.now('sandbox') };
  }

  private launch(delivery: ClaimedDelivery): void {
    this.inFlight += 1;
    const attempt = this.attempt(delivery)
      .then((outcome) => {
        this.outcomes.push(outcome);
        void this.flush();
      })
      .finally(() => {
        this.inFlight -= 1;
        this.attempts.delete(attempt);
        this.sleeper?.();
      });
    this.attempts.add(attempt);
  }

  /** Never rejects: whatever happens is the attempt's outcome. */
  private async attempt(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    const target = delivery.checkout
      ? checkoutTarget(delivery.checkout, this.options.checkoutSecret)
      : delivery.endpoint
        ? payoutTarget(delivery.endpoint, this.secretOf, this.clock.now(delivery.environment))
        : null;
    if (!target) {
      // Removed since it was scheduled (stop sending): nothing is sent.
      const at = this.clock.now(delivery.environment);
      return { delivery, attempt: null, status: 'cancelled', nextAttemptAt: null, finishedAt: at };
    }
    return this.send(delivery, target);
  }

  private async send(delivery: ClaimedDelivery, target: AttemptTarget): Promise<DeliveryOutcome> {
    const environment = delivery.environment;
    const attemptedAt = this.clock.now(environment);
    const started = performance.now();
    let result: AttemptResult;
    let signatureTimestamp: number | null = null;
    try {
      const sign = await target.signer();
      // Checked again now, after resolution; the request connects to the address checked here.
      const resolved = await resolveTarget(target.url, this.options.policy, this.options.resolve);
      const signature = sign(delivery.body);
      signatureTimestamp = signature.timestamp;
      result = await postWebhook(resolved, delivery.body, signature.value, {
        timeoutMs: this.options.timeoutMs ?? REQUEST_TIMEOUT_MS,
        signatureHeaderName: signature.headerName,
        proxyUrl: this.options.proxyUrl,
      });
    } catch (error) {
      result = {
        delivered: false,
        statusCode: null,
        latencyMs: Math.round(performance.now() - started),
        error:
          error instanceof TargetRefusedError
            ? `target refused (${error.code}): ${error.message}`.slice(0, 500)
            : `not sent: ${messageOf(error)}`.slice(0, 500),
        responseBody: null,
      };
    }
    const finishedAt = this.clock.now(environment);
    const number = delivery.attemptsMade + 1;
    const next = result.delivered
      ? null
      : nextAttemptAfter(number, delivery.maxAttempts, finishedAt, target.delaysMs);
    this.options.observer?.attempted(
      delivery.checkout ? 'checkout' : 'payout',
      result.delivered ? 'delivered' : next ? 'failed' : 'exhausted',
    );
    return {
      delivery,
      attempt: {
        number,
        endpointId: target.endpointId,
        url: target.url,
        attemptedAt,
        signatureTimestamp,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        delivered: result.delivered,
        error: result.error,
        responseBody: result.responseBody,
      },
      status: result.delivered ? 'delivered' : next ? 'pending' : 'failed',
      nextAttemptAt: next,
      finishedAt: next ? null : finishedAt,
    };
  }

  /**
   * Records finished attempts in batches: one transaction for everything that finished while the
   * previous batch was being written. A batch that cannot be written is tried again; if the
   * process dies first, the leases run out and the attempts are made again (at-least-once).
   */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.outcomes.length === 0) return Promise.resolve();
    this.flushing = (async () => {
      let failures = 0;
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.splice(0, 500);
        try {
          await this.queue.record(batch);
          failures = 0;
        } catch (error) {
          failures += 1;
          this.outcomes.unshift(...batch);
          this.options.log?.('error', `recording webhook attempts failed: ${messageOf(error)}`);
          if (failures > 20) {
            this.outcomes.splice(0, batch.length); // the leases run out; the attempts are made again
            break;
          }
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures)),
          );
        }
      }
    })().finally(() => {
      this.flushing = undefined;
      if (this.outcomes.length > 0) void this.flush();
    });
    return this.flushing;
  }

  private pause(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.sleeper = () => {
        this.sleeper = undefined;
        done();
      };
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
