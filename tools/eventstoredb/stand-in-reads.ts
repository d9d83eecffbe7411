// Streams.Read: reads of one stream or of $all, forwards or backwards, and subscriptions (a
// cursor over the log that catches up, says "caught up" once, then follows new appends).
import type { ServerWritableStream } from '@grpc/grpc-js';
import { ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { EventLog, StoredEvent } from './stand-in-log';
import {
  caughtUpResponse,
  checkpointResponse,
  confirmationResponse,
  eventResponse,
  InvalidRequest,
  streamNameOf,
  streamNotFoundResponse,
} from './stand-in-messages';

type ReadCall = ServerWritableStream<ReadReq, ReadResp>;
type Options = ReadReq.Options;
const { StreamOptions, AllOptions, FilterOptions, ReadDirection } = ReadReq.Options;

// EventStoreDB's page size: the default search window of a filtered read.
const DEFAULT_SEARCH_WINDOW = 32;
const END_OF_ALL = Number.MAX_SAFE_INTEGER;

interface Filter {
  matches(event: StoredEvent): boolean;
  /** Considered events (matching or not) between two checkpoints. */
  checkpointInterval: number;
}

export async function serveRead(log: EventLog, call: ReadCall): Promise<void> {
  const options = call.request.getOptions();
  if (!options) throw new InvalidRequest('read options are missing');
  const filter = readFilter(options);
  if (options.hasSubscription()) return subscribe(log, call, options, filter);

  const count = Number(options.getCount());
  const backwards = options.getReadDirection() === ReadDirection.BACKWARDS;
  let candidates: readonly StoredEvent[];
  const streamOptions = options.getStream();
  if (streamOptions) {
    const streamName = streamNameOf(streamOptions.getStreamIdentifier());
    const stream = log.stream(streamName);
    if (stream.length === 0) return writeAndEnd(call, [streamNotFoundResponse(streamName)]);
    const from = streamFrom(streamOptions, stream.length);
    candidates = backwards ? stream.slice(0, from + 1).reverse() : stream.slice(from);
  } else {
    const from = allFrom(options);
    // Forwards from a position includes the event there; backwards reads what precedes it.
    candidates = backwards
      ? log.all.filter((event) => event.position < from).reverse()
      : log.all.filter((event) => event.position >= from);
  }
  const matching = filter ? candidates.filter((event) => filter.matches(event)) : candidates;
  return writeAndEnd(call, matching.slice(0, count).map(eventResponse));
}

function streamFrom(options: ReadReq.Options.StreamOptions, length: number): number {
  switch (options.getRevisionOptionCase()) {
    case StreamOptions.RevisionOptionCase.END:
      return length;
    case StreamOptions.RevisionOptionCase.REVISION:
      return Number(options.getRevision());
    default:
      return 0;
  }
}

function allFrom(options: Options): number {
  const all = options.getAll();
  switch (all?.getAllOptionCase()) {
    case AllOptions.AllOptionCase.END:
      return END_OF_ALL;
    case AllOptions.AllOptionCase.POSITION:
      return Number(all.getPosition()?.getCommitPosition());
    default:
      return 0;
  }
}

function readFilter(options: Options): Filter | undefined {
  const filter = options.getFilter();
  if (!filter) return undefined;
  const onStream = filter.getFilterCase() === FilterOptions.FilterCase.STREAM_IDENTIFIER;
  const expression = onStream ? filter.getStreamIdentifier() : filter.getEventType();
  if (!expression) throw new InvalidRequest('filter expression is missing');
  const regex = expression.getRegex() === '' ? undefined : compile(expression.getRegex());
  const prefixes = expression.getPrefixList();
  const window =
    filter.getWindowCase() === FilterOptions.WindowCase.MAX ? filter.getMax() : DEFAULT_SEARCH_WINDOW;
  return {
    matches: (event) => {
      const subject = onStream ? event.streamName : event.type;
      return regex ? regex.test(subject) : prefixes.some((prefix) => subject.startsWith(prefix));
    },
    checkpointInterval: Math.max(1, filter.getCheckpointintervalmultiplier()) * window,
  };
}

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch {
    throw new InvalidRequest(`filter regex '${pattern}' does not compile`);
  }
}

async function subscribe(
  log: EventLog,
  call: ReadCall,
  options: Options,
  filter: Filter | undefined,
): Promise<void> {
  const streamOptions = options.getStream();
  const streamName = streamOptions ? streamNameOf(streamOptions.getStreamIdentifier()) : undefined;
  const source = (): readonly StoredEvent[] => (streamName === undefined ? log.all : log.stream(streamName));
  // A subscription starts after the revision or position it is given.
  let next = streamOptions
    ? streamFrom(streamOptions, source().length) + (streamOptions.hasRevision() ? 1 : 0)
    : firstAfter(log.all, allFrom(options), options.getAll()?.hasPosition() ?? false);

  let caughtUp = false;
  let pumping = false;
  let considered = 0;
  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        if (call.cancelled) return;
        const event = source()[next];
        if (event === undefined) {
          if (caughtUp) return;
          caughtUp = true;
          await write(call, caughtUpResponse());
          continue;
        }
        next += 1;
        if (!filter || filter.matches(event)) await write(call, eventResponse(event));
        if (filter && ++considered >= filter.checkpointInterval) {
          considered = 0;
          await write(call, checkpointResponse(event.position));
        }
      }
    } finally {
      pumping = false;
    }
  };

  const stopListening = log.onCommit(() => void pump().catch(() => call.end()));
  call.once('cancelled', stopListening);
  call.once('close', stopListening);
  await write(call, confirmationResponse());
  await pump();
}

function firstAfter(all: readonly StoredEvent[], from: number, exclusive: boolean): number {
  if (from === END_OF_ALL) return all.length;
  const index = all.findIndex((event) => (exclusive ? event.position > from : event.position >= from));
  return index === -1 ? all.length : index;
}

async function writeAndEnd(call: ReadCall, responses: readonly ReadResp[]): Promise<void> {
  for (const response of responses) {
    if (call.cancelled) return;
    await write(call, response);
  }
  call.end();
}

// Respects the client's flow control, and gives up when the call ends meanwhile.
function write(call: ReadCall, response: ReadResp): Promise<void> {
  if (call.write(response)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      call.off('drain', done).off('cancelled', done).off('close', done);
      resolve();
    };
    call.on('drain', done).on('cancelled', done).on('close', done);
  });
}
