import { Client } from 'pg';
import { testBackends, TestDatabase } from '@payouts/testing';
import { PgQuery, submitted } from './pg-query';
import { hasControlCharacter, seededStrings } from './testing/seeded-strings';

/**
 * The server reads every array this product writes (text-array-literal.ts) as the same array pg's
 * own writer sends: strings with quotes, backslashes, braces, control characters, non-BMP text and
 * a lone surrogate, nulls and undefined, whichever way each array is written.
 */
// pg's Query with our writer runs on the server only (the embedded database is given arrays as they are).
describe.each(testBackends().filter((b) => b.name === 'postgres'))(
  'textArrayLiteral read back on $name',
  (backend) => {
    let client: Client;
    let database: TestDatabase;

    beforeAll(async () => {
      database = await backend.open({ migrated: false });
      client = new Client({ connectionString: database.url });
      await client.connect();
    });
    afterAll(async () => {
      await client.end();
      await database.drop();
    });

    const ours = async (array: unknown[]) =>
      (await submitted(new PgQuery('SELECT $1::text[] AS a', [array]), (q) => client.query(q))).rows[0].a;
    const pgs = async (array: unknown[]) => (await client.query('SELECT $1::text[] AS a', [array])).rows[0].a;

    it('reads each array back as pg writes it', async () => {
      const strings = seededStrings(11, 3_000);
      const withNulls = strings.map((s, i) => (i % 5 === 0 ? null : i % 5 === 1 ? undefined : s));
      const plain = withNulls.filter((s) => s == null || !hasControlCharacter(s));
      const arrays: unknown[][] = [
        strings,
        withNulls,
        plain,
        [null],
        [undefined],
        ['null', 'NULL', null],
        ['\ud800', null],
      ];
      for (let i = 0; i < strings.length; i += 50) arrays.push(withNulls.slice(i, i + 50));
      for (const array of arrays) {
        const back = await ours(array);
        expect(back).toEqual(await pgs(array));
        expect(back).toHaveLength(array.length);
      }
      expect(await ours(['null', null, 'NULL'])).toEqual(['null', null, 'NULL']);
    });
  },
);
