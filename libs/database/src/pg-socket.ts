import type { Client } from 'pg';

/** What corking needs of a connection's socket (a net.Socket, or a tls.TLSSocket over SSL). */
export interface CorkableSocket {
  cork(): void;
  uncork(): void;
}

/** Where pg 8 keeps a connection's socket: `client.connection.stream`, in neither its API nor its types. */
type PgInternals = { connection?: { stream?: Partial<CorkableSocket> } };

/**
 * The socket under a pg connection, or undefined if pg no longer keeps one where this looks.
 *
 * The only place that reaches into pg's private fields. pg gives no way to hold a connection's
 * writes, and holding them is what sends a pipelined transaction's statements, or a turn's shared
 * reads, in one socket write (cork-until-next-tick.ts; pg's own Query corks the same socket
 * around each statement's messages, and the counts nest). Should a pg release move the socket,
 * this answers undefined and statements go out uncorked: still correct, only slower, which nothing
 * else would show; pg-socket.pg.int.spec.ts and pg-socket.unit.spec.ts fail instead.
 */
export function pgSocketOf(client: Client): CorkableSocket | undefined {
  const stream = (client as unknown as PgInternals).connection?.stream;
  if (!stream?.cork || !stream.uncork) return undefined;
  return stream as CorkableSocket;
}
