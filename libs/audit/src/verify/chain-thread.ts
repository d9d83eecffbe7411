import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FeedKey } from '../feed/audit-feed';
import { ChainChecker, ChainEnd, FlatPage, IndexedFinding } from './chain-checker';

/** What verify's pass hands the chain's side, in this order: link pages, event pages, the end. */
export interface ChainSide {
  links(flat: FlatPage): void;
  linksEnd(): void;
  /** The findings at this page's events; the caller may send further pages before awaiting it. */
  events(first: number, flat: FlatPage): Promise<IndexedFinding[]>;
  finish(): Promise<ChainEnd>;
  close(): Promise<void>;
}

/** Messages to the chain's worker (chain-worker.ts). */
export type ToChainWorker =
  | { kind: 'links'; flat: FlatPage }
  | { kind: 'linksEnd' }
  | { kind: 'events'; first: number; flat: FlatPage }
  | { kind: 'finish' };

/** Replies, one per events message and one to finish, in the order asked. */
export type FromChainWorker =
  | { kind: 'events'; findings: IndexedFinding[] }
  | { kind: 'finish'; end: ChainEnd }
  | { kind: 'failed'; message: string };

const WORKER_FILE = join(__dirname, 'chain-worker.js');

/**
 * The chain's side on a second thread when the compiled worker is there (the built tool: about a
 * third of verify's CPU, the canonical JSON and SHA-256 of every event, runs beside the read and
 * the folds), else in this thread (the TypeScript test runs, which have no compiled worker).
 */
export function openChainSide(checkpoint: FeedKey): ChainSide {
  return existsSync(WORKER_FILE) ? new WorkerChainSide(checkpoint) : new InThreadChainSide(checkpoint);
}

export class InThreadChainSide implements ChainSide {
  private readonly checker: ChainChecker;
  /** Pages are checked one after another, as the worker takes its messages: TamperCheck is one pass. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(checkpoint: FeedKey) {
    this.checker = new ChainChecker(checkpoint);
  }
  links(flat: FlatPage): void {
    this.checker.links(flat);
  }
  linksEnd(): void {
    this.checker.linksEnd();
  }
  events(first: number, flat: FlatPage): Promise<IndexedFinding[]> {
    return this.inTurn(() => this.checker.events(first, flat));
  }
  finish(): Promise<ChainEnd> {
    return this.inTurn(() => this.checker.finish());
  }
  close(): Promise<void> {
    return Promise.resolve();
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.turn.then(work);
    this.turn = done.catch(() => undefined);
    return done;
  }
}

type Awaited = { resolve: (reply: FromChainWorker) => void; reject: (error: Error) => void };

export class WorkerChainSide implements ChainSide {
  private readonly worker: Worker;
  /** Replies not yet received, oldest first (the worker answers in order). */
  private readonly awaited: Awaited[] = [];
  private failure: Error | null = null;

  constructor(checkpoint: FeedKey) {
    this.worker = new Worker(WORKER_FILE, { workerData: { checkpoint } });
    this.worker.on('message', (reply: FromChainWorker) => {
      const next = this.awaited.shift();
      if (reply.kind === 'failed') this.fail(new Error(`the chain check failed: ${reply.message}`), next);
      else next?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the chain check's thread stopped (exit ${code})`)));
  }

  links(flat: FlatPage): void {
    this.post({ kind: 'links', flat });
  }
  linksEnd(): void {
    this.post({ kind: 'linksEnd' });
  }
  async events(first: number, flat: FlatPage): Promise<IndexedFinding[]> {
    const reply = await this.ask({ kind: 'events', first, flat });
    return reply.kind === 'events' ? reply.findings : [];
  }
  async finish(): Promise<ChainEnd> {
    const reply = await this.ask({ kind: 'finish' });
    if (reply.kind !== 'finish') throw new Error('the chain check answered finish out of turn');
    return reply.end;
  }
  async close(): Promise<void> {
    this.failure ??= new Error('closed');
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private post(message: ToChainWorker): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage(message);
  }

  private ask(message: ToChainWorker): Promise<FromChainWorker> {
    const reply = new Promise<FromChainWorker>((resolve, reject) => this.awaited.push({ resolve, reject }));
    this.post(message);
    return reply;
  }

  private fail(error: Error, first?: Awaited): void {
    this.failure ??= error;
    for (const awaited of first ? [first, ...this.awaited.splice(0)] : this.awaited.splice(0)) {
      awaited.reject(error);
    }
  }
}
