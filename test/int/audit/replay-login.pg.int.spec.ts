import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testBackends, TestDatabase } from '@payouts/testing';
import { runAudit } from '../../../tools/audit/main';

// Logins and grants exist only on a server.
describe('npm run audit -- replay with a login that may not create a schema', () => {
  const role = `replay_reader_${randomBytes(4).toString('hex')}`;
  let server: TestDatabase;

  const admin = async (sql: string, url = process.env.DATABASE_URL!) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    server = await testBackends()
      .find((backend) => backend.name === 'postgres')!
      .open({ poolSize: 1 });
    await admin(`CREATE ROLE ${role} LOGIN`);
    await admin(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`, server.url!);
  });
  afterAll(async () => {
    await server.drop();
    await admin(`DROP ROLE IF EXISTS ${role}`);
  });

  it('stops with exit 2 and says which login it needs', async () => {
    const url = new URL(server.url!);
    url.username = role;
    const stderr: string[] = [];
    const output = { line: async () => undefined, progress: (text: string) => void stderr.push(text) };
    const code = await runAudit(['replay'], output, { DATABASE_URL: url.toString() });
    expect({ code, stderr }).toEqual({
      code: 2,
      stderr: [
        expect.stringMatching(
          /^audit replay: permission denied for database .*: replay needs a login that may create a schema in this database$/,
        ),
      ],
    });
  });
});
