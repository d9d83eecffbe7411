// A protocol-level EventStoreDB stand-in: a gRPC server built from the service definitions that
// @eventstore/db-client ships, answering Streams.Append and Streams.Read over plain HTTP/2.
// What it does and how it differs from a real server: docs/eventstoredb.md#the-stand-in.
import {
  Metadata,
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerErrorResponse,
  type ServerReadableStream,
  type ServerWritableStream,
} from '@grpc/grpc-js';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import type { AppendReq, AppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { EventLog } from './stand-in-log';
import {
  appendSuccess,
  appendWrongExpectedVersion,
  InvalidRequest,
  readAppendOptions,
  readProposedEvent,
} from './stand-in-messages';
import { serveRead } from './stand-in-reads';

export interface StandInOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Without it the events live in memory only. */
  readonly dataDir?: string;
}

export interface AppendHold {
  /** How many appends are waiting on this hold now. */
  readonly waiting: number;
  release(): void;
}

export interface StandIn {
  /** `esdb://host:port?tls=false`, for EventStoreDBClient.connectionString. */
  readonly connectionString: string;
  readonly port: number;
  /** Closes every call and the listener; the same port and data directory can be started again. */
  stop(): Promise<void>;
  /**
   * Appends to matching streams wait, unanswered, until released. One whose call ended
   * meanwhile (the client went away, or the stand-in stopped) is dropped, as if it had never
   * reached the server: tests use it to stop a writer between two appends.
   */
  holdAppends(predicate: (streamName: string) => boolean): AppendHold;
  eventCount(): number;
}

interface Hold {
  readonly predicate: (streamName: string) => boolean;
  readonly released: Promise<void>;
  waiting: number;
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const host = options.host ?? '127.0.0.1';
  const log = EventLog.open(options.dataDir);
  const holds = new Set<Hold>();
  let isStopped = false;
  let markStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));

  // Waits while a hold matches; false when the append must be dropped.
  const passHolds = async (
    streamName: string,
    call: ServerReadableStream<AppendReq, AppendResp>,
  ): Promise<boolean> => {
    const callEnded = new Promise<void>((resolve) => call.once('cancelled', resolve));
    for (;;) {
      if (call.cancelled) return false;
      const hold = [...holds].find((candidate) => candidate.predicate(streamName));
      if (!hold) return true;
      hold.waiting += 1;
      await Promise.race([hold.released, callEnded, stopped]);
      hold.waiting -= 1;
      if (call.cancelled || isStopped) return false;
    }
  };

  const append = async (
    call: ServerReadableStream<AppendReq, AppendResp>,
  ): Promise<AppendResp | undefined> => {
    const [first, ...rest] = await collect(call);
    const appendOptions = first?.getOptions();
    if (!appendOptions) throw new InvalidRequest('the first append message must carry the options');
    const { streamName, expected } = readAppendOptions(appendOptions);
    const events = rest.map((request) => {
      const message = request.getProposedMessage();
      if (!message) throw new InvalidRequest('the options must come once, before the events');
      return readProposedEvent(message);
    });
    if (!(await passHolds(streamName, call))) return undefined;
    const outcome = log.append(streamName, expected, events);
    return outcome.kind === 'success'
      ? appendSuccess(outcome.currentRevision, outcome.position)
      : appendWrongExpectedVersion(outcome.currentRevision, expected);
  };

  const server = new Server();
  server.addService(StreamsService, {
    append: (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) => {
      append(call).then(
        (response) => response && callback(null, response),
        (error: unknown) => callback(toServiceError(error)),
      );
    },
    read: (call: ServerWritableStream<ReadReq, ReadResp>) => {
      // grpc-js turns an 'error' event on a server stream into the call's status.
      serveRead(log, call).catch((error: unknown) => call.emit('error', toServiceError(error)));
    },
  });
  const port = await bind(server, host, options.port ?? 0);
  const hostInUri = host.includes(':') ? `[${host}]` : host;

  let stopping: Promise<void> | undefined;
  return {
    connectionString: `esdb://${hostInUri}:${port}?tls=false`,
    port,
    eventCount: () => log.all.length,
    holdAppends(predicate) {
      let release!: () => void;
      const hold: Hold = {
        predicate,
        released: new Promise<void>((resolve) => (release = resolve)),
        waiting: 0,
      };
      holds.add(hold);
      return {
        get waiting() {
          return hold.waiting;
        },
        release: () => {
          holds.delete(hold);
          release();
        },
      };
    },
    stop() {
      stopping ??= (async () => {
        isStopped = true;
        markStopped();
        server.forceShutdown();
        log.close();
      })();
      return stopping;
    },
  };
}

function bind(server: Server, host: string, port: number): Promise<number> {
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise((resolve, reject) =>
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
}

function collect(call: ServerReadableStream<AppendReq, AppendResp>): Promise<AppendReq[]> {
  const requests: AppendReq[] = [];
  return new Promise((resolve, reject) => {
    call.on('data', (request: AppendReq) => requests.push(request));
    call.once('end', () => resolve(requests));
    call.once('error', reject);
  });
}

function toServiceError(error: unknown): ServerErrorResponse {
  const metadata = new Metadata();
  if (error instanceof InvalidRequest) {
    Object.entries(error.trailers).forEach(([key, value]) => metadata.set(key, value));
    return Object.assign(new Error(error.message), { code: status.INVALID_ARGUMENT, metadata });
  }
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(message), { code: status.UNKNOWN, metadata });
}
