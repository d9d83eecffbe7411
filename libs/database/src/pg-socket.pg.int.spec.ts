import { Socket } from 'node:net';
import { Client, QueryResult } from 'pg';
import { countSocketWrites, TestDatabase, testBackends } from '@payouts/testing';
import { corkUntilNextTick } from './cork-until-next-tick';
import { pgSocketOf } from './pg-socket';

// pgSocketOf reaches into pg's private fields (pg-socket.ts), and the corking built on it would
// only get slower, unseen, if a pg release moved them. These fail instead: the field is there, with
// the shape it is used for, on a connection to the server opened as the SQL client opens its own,
// and corking it does put the statements issued meanwhile in one socket write.
describe.each(testBackends().filter((b) => b.name === 'postgres'))(
  'the socket under a pg connection on $name',
  (backend) => {
    let database: TestDatabase;
    let client: Client;

    beforeAll(async () => {
      database = await backend.open({ migrated: false });
      // Pipelined, as the pool's and the shared reads' connections are (postgres-sql-client.ts).
      client = new Client({ connectionString: database.url, pipeline: true });
      await client.connect();
    });
    afterAll(async () => {
      await client.end();
      await database.drop();
    });

    /** Statements issued together, each answered with its own number. */
    const selects = (ns: number[]): Promise<QueryResult<{ n: number }>[]> =>
      Promise.all(ns.map((n) => client.query<{ n: number }>('SELECT $1::integer AS n', [n])));
    const numbers = (results: QueryResult<{ n: number }>[]) => results.map((result) => result.rows[0]?.n);

    it("is pg's private connection.stream: the connected socket the client writes its statements to", async () => {
      const socket = pgSocketOf(client);
      expect(socket).toBeInstanceOf(Socket);
      expect(socket).toBe((client as unknown as { connection: { stream: unknown } }).connection.stream);
      expect((socket as Socket).remotePort).toBe(Number(new URL(database.url!).port || 5432));
      const written = jest.spyOn(socket as Socket, 'write');
      try {
        expect(numbers(await selects([1]))).toEqual([1]);
        expect(written).toHaveBeenCalled();
      } finally {
        written.mockRestore();
      }
    });

    it('puts the statements issued while it is corked in one socket write, where each had its own', async () => {
      const uncorked = await countSocketWrites(() => selects([2, 3, 4]));
      expect(numbers(uncorked.result)).toEqual([2, 3, 4]);
      expect(uncorked.writes).toBe(3);

      const socket = pgSocketOf(client)!;
      const corked = await countSocketWrites(() => {
        socket.cork();
        const answers = selects([5, 6, 7]);
        process.nextTick(() => socket.uncork());
        return answers;
      });
      expect(numbers(corked.result)).toEqual([5, 6, 7]);
      expect(corked.writes).toBe(1);
    });

    it("holds a tick's statements, and those issued in the next one, for one write (corkUntilNextTick)", async () => {
      const { result, writes } = await countSocketWrites(async () => {
        corkUntilNextTick(client);
        const first = selects([8, 9]);
        const next = new Promise<QueryResult<{ n: number }>[]>((resolve) =>
          process.nextTick(() => resolve(selects([10]))),
        );
        return [...(await first), ...(await next)];
      });
      expect(numbers(result)).toEqual([8, 9, 10]);
      expect(writes).toBe(1);
    });
  },
);
