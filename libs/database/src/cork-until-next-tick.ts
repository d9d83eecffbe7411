import type { Client } from 'pg';

/** The socket of a pg connection: pg's types do not expose it. */
type CorkableStream = { cork(): void; uncork(): void };
const corkedSockets = new WeakSet<CorkableStream>();

/**
 * Holds the statements issued on a pipelined connection in the current tick in the socket's
 * buffer and writes them in one system call when the tick ends (pg corks each statement's own
 * messages; the counts nest).
 */
export function corkUntilNextTick(client: Client): void {
  const stream = (client as unknown as { connection?: { stream?: Partial<CorkableStream> } }).connection
    ?.stream;
  if (!stream?.cork || !stream.uncork || corkedSockets.has(stream as CorkableStream)) return;
  const socket = stream as CorkableStream;
  socket.cork();
  corkedSockets.add(socket);
  process.nextTick(() => {
    corkedSockets.delete(socket);
    socket.uncork();
  });
}
