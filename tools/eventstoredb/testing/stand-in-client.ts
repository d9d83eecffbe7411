// Test helpers: the real EventStoreDB client pointed at a stand-in, and ways to gather what it
// reads or receives without sleeping.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient, jsonEvent, type Position, type ResolvedEvent } from '@eventstore/db-client';
import type { StandIn } from '../stand-in-server';

export const clientOf = (standIn: StandIn): EventStoreDBClient =>
  EventStoreDBClient.connectionString(standIn.connectionString);

export const uniqueStream = (prefix = 'stream'): string => `${prefix}-${randomUUID()}`;

const dataDirs: string[] = [];

export function temporaryDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eventstoredb-stand-in-'));
  dataDirs.push(dir);
  return dir;
}

export function removeTemporaryDataDirs(): void {
  dataDirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
}

export const event = (type: string, data: Record<string, unknown> = {}, id?: string) =>
  jsonEvent({ type, data, ...(id === undefined ? {} : { id }) });

export async function gather<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

export const typesOf = (events: readonly ResolvedEvent[]): string[] =>
  events.map((e) => e.event?.type ?? '?');

export type SubscriptionItem =
  | { readonly kind: 'event'; readonly type: string; readonly streamId: string; readonly position: bigint }
  | { readonly kind: 'caughtUp' }
  | { readonly kind: 'checkpoint'; readonly position: bigint };

interface ObservableSubscription extends AsyncIterable<ResolvedEvent> {
  on(event: 'caughtUp' | 'confirmation', listener: () => void): unknown;
  unsubscribe(): Promise<void>;
}

type CheckpointReached = (subscription: unknown, position: Position) => Promise<void>;

/**
 * Records what a subscription delivers, in order; `subscribe` gets the checkpointReached
 * callback for its filter, so checkpoints interleave with events as they arrive.
 */
export class SubscriptionRecorder {
  readonly items: SubscriptionItem[] = [];
  confirmed = false;
  error?: unknown;
  private waiters: Array<() => void> = [];
  private subscription!: ObservableSubscription;

  static start(
    subscribe: (checkpointReached: CheckpointReached) => ObservableSubscription,
  ): SubscriptionRecorder {
    const recorder = new SubscriptionRecorder();
    recorder.attach(subscribe(recorder.checkpointReached));
    return recorder;
  }

  private attach(subscription: ObservableSubscription): void {
    this.subscription = subscription;
    subscription.on('confirmation', () => this.push(() => (this.confirmed = true)));
    subscription.on('caughtUp', () => this.push(() => this.items.push({ kind: 'caughtUp' })));
    void (async () => {
      try {
        for await (const resolved of subscription) {
          this.push(() =>
            this.items.push({
              kind: 'event',
              type: resolved.event?.type ?? '?',
              streamId: resolved.event?.streamId ?? '?',
              position: resolved.event?.position?.commit ?? -1n,
            }),
          );
        }
      } catch (error) {
        this.push(() => (this.error = error));
      }
    })();
  }

  private readonly checkpointReached: CheckpointReached = async (_subscription, position) => {
    this.push(() => this.items.push({ kind: 'checkpoint', position: position.commit }));
  };

  eventTypes(): string[] {
    return this.items.flatMap((item) => (item.kind === 'event' ? [item.type] : []));
  }

  /** Resolves once `condition` holds, or fails after `timeoutMs`. */
  async until(condition: (recorder: this) => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition(this)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`subscription did not get there; it had ${JSON.stringify(this.summary())}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  summary(): string[] {
    return this.items.map((item) =>
      item.kind === 'event'
        ? item.type
        : item.kind === 'checkpoint'
          ? `checkpoint@${item.position}`
          : item.kind,
    );
  }

  stop(): Promise<void> {
    return this.subscription.unsubscribe();
  }

  private push(change: () => unknown): void {
    change();
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }
}
