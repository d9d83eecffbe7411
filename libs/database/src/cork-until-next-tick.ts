import type { Client } from 'pg';
import { atTurnEnd } from './turn-end';

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
  corkUntil(client, (uncork) => process.nextTick(() => process.nextTick(uncork)));
}

/**
 * Holds them until the event loop's turn ends (atTurnEnd, after the turn's I/O callbacks): the
 * statements of every request read in this turn, each issued from an I/O callback of its own, go
 * out in one write. For the shared connections' plain reads; a statement waits at most the rest
 * of the turn, as a batched look-up does (BatchedLookUps).
 */
export function corkUntilTurnEnds(client: Client): void {
  corkUntil(client, atTurnEnd);
}

function corkUntil(client: Client, schedule: (uncork: () => void) => void): void {
  const stream = (client as unknown as { connection?: { stream?: Partial<CorkableStream> } }).connection
    ?.stream;
  if (!stream?.cork || !stream.uncork || corkedSockets.has(stream as CorkableStream)) return;
  const socket = stream as CorkableStream;
  socket.cork();
  corkedSockets.add(socket);
  schedule(() => {
    corkedSockets.delete(socket);
    socket.uncork();
  });
}
