import type { Client } from 'pg';

/** The socket of a pg connection: pg's types do not expose it. */
type CorkableStream = { cork(): void; uncork(): void };
const corkedSockets = new WeakSet<CorkableStream>();

/**
 * Holds the statements issued on a pipelined connection in the current tick in the socket's
 * buffer and writes them in one system call when the tick ends (pg corks each statement's own
 * messages; the counts nest). The uncork waits one tick more, so statements that callbacks queued
 * in this tick issue (row batches, see batchingRows) go out in the same write: on a small machine
 * every socket write costs the sender the loopback's whole delivery as well.
 */
export function corkUntilNextTick(client: Client): void {
  const stream = (client as unknown as { connection?: { stream?: Partial<CorkableStream> } }).connection
    ?.stream;
  if (!stream?.cork || !stream.uncork || corkedSockets.has(stream as CorkableStream)) return;
  const socket = stream as CorkableStream;
  socket.cork();
  corkedSockets.add(socket);
  process.nextTick(() =>
    process.nextTick(() => {
      corkedSockets.delete(socket);
      socket.uncork();
    }),
  );
}
