// The stand-in's event log: every stream and $all in memory, and, with a data directory, an
// append-only file that is fsync'd before an append is answered and read back at start.
// The write rules follow EventStoreDB's commit check (docs/eventstoredb.md#the-stand-in).
import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface ProposedEvent {
  readonly id: string;
  readonly type: string;
  readonly isJson: boolean;
  readonly data: Buffer;
  readonly customMetadata: Buffer;
}

export interface StoredEvent extends ProposedEvent {
  readonly streamName: string;
  readonly revision: number;
  /** Commit and prepare position in $all (the stand-in keeps them equal). */
  readonly position: number;
  /** 100 ns ticks since the Unix epoch, as the server sends it in the `created` metadata. */
  readonly created: string;
}

/** -1 is "no stream", as in EventStoreDB's own ExpectedVersion.NoStream. */
export type ExpectedRevision = 'any' | 'stream_exists' | number;
export const NO_STREAM = -1;

export type AppendOutcome =
  | { readonly kind: 'success'; readonly currentRevision: number; readonly position?: number }
  | { readonly kind: 'wrong_expected_version'; readonly currentRevision: number };

type Decision =
  | { readonly kind: 'write' }
  | { readonly kind: 'idempotent'; readonly last: StoredEvent }
  | { readonly kind: 'wrong_expected_version' };

// Positions are offsets in a notional log, advanced by each record's size, so they grow with
// gaps as EventStoreDB's do. A real log starts with the server's own records, so no user event
// sits at 0 (a {0,0} checkpoint must not skip the first event).
const FIRST_POSITION = 256;
const RECORD_OVERHEAD = 128;
const LOG_FILE = 'events.ndjson';

const recordSize = (event: StoredEvent): number =>
  RECORD_OVERHEAD +
  Buffer.byteLength(event.streamName) +
  Buffer.byteLength(event.type) +
  event.data.length +
  event.customMetadata.length;

const tickBase = BigInt(Date.now()) * 10_000n - process.hrtime.bigint() / 100n;
const nowInTicks = (): string => (tickBase + process.hrtime.bigint() / 100n).toString();

export class EventLog {
  private readonly events: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly byStreamAndId = new Map<string, StoredEvent>();
  private readonly commitListeners = new Set<() => void>();
  private nextPosition = FIRST_POSITION;
  private file?: { fd: number; size: number };
  private closed = false;

  /** Memory only without a directory; otherwise loads `<dataDir>/events.ndjson` and appends to it. */
  static open(dataDir?: string): EventLog {
    const log = new EventLog();
    if (dataDir !== undefined) log.openFile(dataDir);
    return log;
  }

  get all(): readonly StoredEvent[] {
    return this.events;
  }

  stream(streamName: string): readonly StoredEvent[] {
    return this.streams.get(streamName) ?? [];
  }

  /** Called after every committed append; returns the unsubscribe function. */
  onCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  append(streamName: string, expected: ExpectedRevision, proposed: readonly ProposedEvent[]): AppendOutcome {
    if (this.closed) throw new Error('the event log is closed');
    const stream = this.stream(streamName);
    const currentRevision = stream.length - 1;
    const decision = this.decide(streamName, expected, proposed);
    if (decision.kind === 'wrong_expected_version')
      return { kind: 'wrong_expected_version', currentRevision };
    if (decision.kind === 'idempotent') {
      return { kind: 'success', currentRevision: decision.last.revision, position: decision.last.position };
    }
    if (proposed.length === 0) return { kind: 'success', currentRevision };

    const created = nowInTicks();
    let position = this.nextPosition;
    const written = proposed.map((event, index): StoredEvent => {
      const stored = { ...event, streamName, revision: currentRevision + 1 + index, position, created };
      position += recordSize(stored);
      return stored;
    });
    this.persist(written);
    written.forEach((event) => this.index(event));
    this.commitListeners.forEach((listener) => listener());
    const last = written[written.length - 1]!;
    return { kind: 'success', currentRevision: last.revision, position: last.position };
  }

  close(): void {
    if (this.file) closeSync(this.file.fd);
    this.file = undefined;
    this.closed = true;
    this.commitListeners.clear();
  }

  // EventStoreDB's commit check: "any" and "stream_exists" are idempotent when every id is
  // already in the stream; an exact revision is idempotent when the same ids follow it in
  // order. Part of the ids matching is "corrupted idempotency", which answers like a conflict.
  private decide(
    streamName: string,
    expected: ExpectedRevision,
    proposed: readonly ProposedEvent[],
  ): Decision {
    const stream = this.stream(streamName);
    const currentRevision = stream.length - 1;
    if (expected === 'stream_exists' && currentRevision === NO_STREAM)
      return { kind: 'wrong_expected_version' };
    if (expected === 'any' || expected === 'stream_exists') {
      const found = proposed.map((event) => this.byStreamAndId.get(`${event.id} ${streamName}`));
      if (found[0] === undefined) return { kind: 'write' };
      const last = found[found.length - 1];
      return found.every((event) => event !== undefined) && last
        ? { kind: 'idempotent', last }
        : { kind: 'wrong_expected_version' };
    }
    if (expected === currentRevision) return { kind: 'write' };
    if (expected > currentRevision || proposed.length === 0) return { kind: 'wrong_expected_version' };
    const already = proposed.map((_, index) => stream[expected + 1 + index]);
    const same = already.every((event, index) => event?.id === proposed[index]!.id);
    const last = already[already.length - 1];
    return same && last ? { kind: 'idempotent', last } : { kind: 'wrong_expected_version' };
  }

  private index(event: StoredEvent): void {
    this.events.push(event);
    const stream = this.streams.get(event.streamName) ?? [];
    if (stream.length === 0) this.streams.set(event.streamName, stream);
    stream.push(event);
    this.byStreamAndId.set(`${event.id} ${event.streamName}`, event);
    this.nextPosition = event.position + recordSize(event);
  }

  // One line per append, so an append torn by a crash is dropped whole when the file is read.
  private persist(events: readonly StoredEvent[]): void {
    if (!this.file) return;
    const line = Buffer.from(JSON.stringify(events.map(toJson)) + '\n');
    try {
      if (writeSync(this.file.fd, line) !== line.length) throw new Error('short write to the event log');
      fsyncSync(this.file.fd);
      this.file.size += line.length;
    } catch (error) {
      ftruncateSync(this.file.fd, this.file.size);
      throw error;
    }
  }

  private openFile(dataDir: string): void {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, LOG_FILE);
    const fd = openSync(path, 'a+');
    const text = readFileSync(path, 'utf8');
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    const size = Buffer.byteLength(complete);
    if (size !== Buffer.byteLength(text)) ftruncateSync(fd, size);
    for (const line of complete.split('\n').filter((l) => l !== '')) {
      (JSON.parse(line) as StoredEventJson[]).map(fromJson).forEach((event) => this.index(event));
    }
    this.file = { fd, size };
  }
}

interface StoredEventJson {
  streamName: string;
  revision: number;
  position: number;
  id: string;
  type: string;
  isJson: boolean;
  created: string;
  data: string;
  customMetadata: string;
}

const toJson = (event: StoredEvent): StoredEventJson => ({
  ...event,
  data: event.data.toString('base64'),
  customMetadata: event.customMetadata.toString('base64'),
});

const fromJson = (json: StoredEventJson): StoredEvent => ({
  ...json,
  data: Buffer.from(json.data, 'base64'),
  customMetadata: Buffer.from(json.customMetadata, 'base64'),
});
