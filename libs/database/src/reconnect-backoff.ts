import { Client, ClientConfig } from 'pg';
import { DatabaseUnavailableError } from './connection-loss';

/** The first pause after a failed connect, doubled after each further failure up to the cap. */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;

/**
 * Paces one process's new connections to a server that refused or dropped them. After a failed
 * connect, connects within the pause fail at once with the last reason (a request answers 503
 * without waiting), so a restarting server is not met by a connection storm from every request;
 * the first connect after the pause tries again, and a success ends the pauses.
 */
export class ReconnectBackoff {
  private failures = 0;
  private retryAt = 0;
  private lastFailure: unknown;

  constructor(private readonly now: () => number = Date.now) {}

  /** Throws while a pause after a failed connect is running. */
  check(): void {
    if (this.failures > 0 && this.now() < this.retryAt) throw new DatabaseUnavailableError(this.lastFailure);
  }

  failed(error: unknown): void {
    this.failures += 1;
    this.lastFailure = error;
    this.retryAt = this.now() + Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(this.failures - 1, 16));
  }

  succeeded(): void {
    this.failures = 0;
  }
}

export type ConnectionLossListener = (error: Error) => void;

/**
 * pg's Client for every connection we open (the pool's and the shared reads'):
 * - it listens for `error` from its first moment. A connection whose server goes away emits
 *   `error`, and pg-pool listens only while a client is idle in the pool: one lost while checked
 *   out (in a transaction, in a Prisma query) would otherwise end the process. The statements on
 *   it fail on their own; the pool drops it on release and opens a new one when needed.
 * - its connects go through the process's ReconnectBackoff.
 */
export function resilientClientClass(
  backoff: ReconnectBackoff,
  onLost: ConnectionLossListener,
): typeof Client {
  class ResilientClient extends Client {
    constructor(config?: string | ClientConfig) {
      super(config);
      this.on('error', onLost);
    }

    override connect(): Promise<Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: Client) => void)): void;
    override connect(
      callback?: ((err: Error) => void) | ((err: null, c: Client) => void),
    ): Promise<Client> | void {
      const connecting = this.paced();
      if (!callback) return connecting;
      // pg answers a callback with the error alone, or with none (pg-pool reads only the error).
      const answer = callback as (err: Error | undefined) => void;
      connecting.then(
        () => answer(undefined),
        (error: Error) => answer(error),
      );
    }

    private async paced(): Promise<Client> {
      backoff.check();
      try {
        await super.connect();
      } catch (error) {
        backoff.failed(error);
        throw error;
      }
      backoff.succeeded();
      return this;
    }
  }
  return ResilientClient;
}
