import { Client, ClientConfig, QueryResult } from 'pg';
import { PgQuery, submitted } from './pg-query';
import { corkUntilTurnEnds } from './cork-until-next-tick';
import { atTurnEnd } from './turn-end';

/**
 * A few connections that every caller shares, in pg's pipeline mode, for the hot read-only look-ups
 * (a credential, a payout). Concurrent requests' statements are written to one connection together
 * and answered back to back, so each costs a fraction of a pool round trip in this process and in
 * the server (measured: about a third of the client CPU per statement, and three times the
 * statements per second, on two cores). The price is that a statement waits for those queued
 * before it, which is why only plain SELECTs that never wait on a lock belong here.
 *
 * A connection that fails is forgotten and the next statement opens a new one (paced by the
 * client class's ReconnectBackoff while the server refuses).
 */
export class SharedReadConnections {
  private readonly connections: (Promise<Client> | undefined)[];
  /** The connections that are open, by slot. */
  private readonly open: (Client | undefined)[];
  private next = 0;
  private turnSlot: number | undefined;
  private closed = false;

  constructor(
    private readonly config: ClientConfig,
    count: number,
    /** The client class to open them with (the process's resilient one: error listener, paced connects). */
    private readonly ClientClass: typeof Client = Client,
  ) {
    if (!Number.isSafeInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
    this.connections = new Array<Promise<Client> | undefined>(count).fill(undefined);
    this.open = new Array<Client | undefined>(count).fill(undefined);
  }

  async query(query: PgQuery): Promise<QueryResult> {
    const slot = this.slotOfThisTurn();
    // An open connection is corked before any await: a statement issued at the turn's end (a
    // batched look-up's) is then written in that same turn, not a turn later.
    const client = (!this.closed && this.open[slot]) || (await this.connection(slot));
    corkUntilTurnEnds(client);
    return submitted(query, (q) => client.query(q));
  }

  /**
   * The statements of one turn of the event loop share a connection, so they go out in one write;
   * the next turn's take the next connection, so the server still answers on all of them.
   */
  private slotOfThisTurn(): number {
    if (this.turnSlot === undefined) {
      this.turnSlot = this.next++ % this.connections.length;
      atTurnEnd(() => {
        this.turnSlot = undefined;
      });
    }
    return this.turnSlot;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(
      this.connections.map(async (connecting) => {
        const client = await connecting;
        await client?.end();
      }),
    );
  }

  private connection(slot: number): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('the database client is closed'));
    const existing = this.connections[slot];
    if (existing) return existing;
    const client = new this.ClientClass({ ...this.config, pipeline: true });
    const connecting: Promise<Client> = client.connect().then(
      () => {
        if (this.connections[slot] === connecting) this.open[slot] = client;
        return client;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    const forget = () => {
      if (this.connections[slot] === connecting) this.connections[slot] = undefined;
      if (this.open[slot] === client) this.open[slot] = undefined;
    };
    // A lost server must not crash the process: the statements on it fail, the slot reconnects.
    client.on('error', forget);
    client.on('end', forget);
    this.connections[slot] = connecting;
    return connecting;
  }
}
