import { Socket } from 'node:net';
import { Client } from 'pg';
import { pgSocketOf } from './pg-socket';

// pgSocketOf reaches into pg's private fields (pg-socket.ts). Without these, a pg release that
// moved them would only make the corking stop, unseen; pg-socket.pg.int.spec.ts checks the same on
// a live connection to the server, and that corking it really puts statements in one write.
describe('the socket under a pg client', () => {
  it("is pg's private connection.stream, a net.Socket, from the client's construction on", () => {
    const client = new Client({ pipeline: true });
    const stream = (client as unknown as { connection?: { stream?: unknown } }).connection?.stream;
    expect(stream).toBeInstanceOf(Socket);
    expect(pgSocketOf(client)).toBe(stream);
  });

  it('is none for a client without a corkable socket there, so corking is skipped', () => {
    expect(pgSocketOf({} as Client)).toBeUndefined();
    expect(pgSocketOf({ connection: { stream: { cork() {} } } } as unknown as Client)).toBeUndefined();
  });
});
