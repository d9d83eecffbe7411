import type { Client } from 'pg';
import { CorkableSocket, pgSocketOf } from './pg-socket';
import { atTurnEnd } from './turn-end';

const corkedSockets = new WeakSet<CorkableSocket>();

/**
 * Holds the statements issued on a pipelined connection in the current tick in the socket's
 * buffer and writes them in one system call when the tick ends (pg corks each statement's own
 * messages; the counts nest). The uncork waits one tick more, so statements that callbacks queued
 * in this tick issue (row batches, see batchingRows in libs/write-side) go out in the same write:
 * on a small machine every socket write costs the sender the loopback's whole delivery as well.
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
  const socket = pgSocketOf(client);
  if (!socket || corkedSockets.has(socket)) return;
  socket.cork();
  corkedSockets.add(socket);
  schedule(() => {
    corkedSockets.delete(socket);
    socket.uncork();
  });
}
