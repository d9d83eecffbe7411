import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AccountsRepository, SecretBox } from '@payouts/accounts';
import { PostgresReceivingDetailsVault } from '@payouts/claims';
import { migrate, SqlClient } from '@payouts/database';
import { ReceivingDetails } from '@payouts/domain';
import { SealedAnswerUrls } from '@payouts/payouts';
import { CliDatabase, cliDatabase, testBackends, usingCliDatabase } from '@payouts/testing';
import { WebhookEndpoints } from '@payouts/webhooks';
import { ROTATION_EXIT, runRotation } from './main';

const WALLET: ReceivingDetails = { method: 'wallet', walletHandle: '+14155550100' };
const TABLES = [
  'credentials.secret_ciphertext',
  'payout_webhook_endpoints.secret_ciphertext',
  'payout_webhook_endpoints.previous_secret_ciphertext',
  'claim_receiving_details.details_ciphertext',
  'idempotency_keys.response_body (sealed_url)',
];

interface Written {
  credentialId: string;
  checkoutSecret: string;
  endpointId: string;
  webhookSecret: string;
  payoutId: string;
  answerUrl: string;
}

/** One of each ciphertext the service stores, written under `key` by the code that writes it. */
async function writeUnder(db: SqlClient, key: Buffer): Promise<Written> {
  const accounts = new AccountsRepository(db, key);
  const { accountId } = await accounts.createAccount({ name: 'Shop', region: 'US' });
  const credential = await accounts.issueCredential(accountId, { kind: 'checkout', environment: 'sandbox' });
  const saved = await new WebhookEndpoints(db, new SecretBox(key)).save(
    accountId,
    'sandbox',
    'https://merchant.example/hooks',
    new Date(),
  );
  // Rotated once, so the endpoint holds a previous secret in its 24-hour overlap too.
  const webhooks = new WebhookEndpoints(db, new SecretBox(key));
  const rotated = await webhooks.rotateSecret(accountId, 'sandbox', new Date());
  if (!rotated) throw new Error('the endpoint was just saved');
  const payoutId = `po_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  await new PostgresReceivingDetailsVault(db, key).save(payoutId, WALLET);
  const answerUrl = `https://pay.example/claim/${payoutId}.${randomBytes(32).toString('base64url')}`;
  const body = new SealedAnswerUrls(key).seal(
    { payout_id: payoutId, status: 'awaiting_choice' },
    'payout_url',
    answerUrl,
  );
  await db.query(
    `INSERT INTO idempotency_keys (account_id, environment, method, path, idempotency_key, request_hash, state,
       response_status, response_body, resource_id, completed_at)
     VALUES ($1, 'sandbox', 'POST', '/api/payout', $2, $3, 'completed', 200, $4::jsonb, $5, now())`,
    [
      accountId,
      randomUUID(),
      createHash('sha256').update('request').digest('hex'),
      JSON.stringify(body),
      payoutId,
    ],
  );
  return {
    credentialId: credential.credentialId,
    checkoutSecret: credential.secret!,
    endpointId: saved.endpoint.endpointId,
    webhookSecret: rotated.secret,
    payoutId,
    answerUrl,
  };
}

/** Reads each one back the way the apps do, with `key` alone. */
async function readUnder(db: SqlClient, key: Buffer, written: Written): Promise<Record<string, unknown>> {
  const { rows } = await db.query<{ secret_ciphertext: string }>(
    'SELECT secret_ciphertext FROM payout_webhook_endpoints WHERE endpoint_id = $1',
    [written.endpointId],
  );
  const answer = await db.query<{ response_body: unknown }>(
    'SELECT response_body FROM idempotency_keys WHERE resource_id = $1',
    [written.payoutId],
  );
  return {
    checkoutSecret: await new AccountsRepository(db, key).checkoutSecret(written.credentialId),
    webhookSecret: new WebhookEndpoints(db, new SecretBox(key)).secretOf(
      written.endpointId,
      rows[0]!.secret_ciphertext,
    ),
    details: await new PostgresReceivingDetailsVault(db, key).load(written.payoutId),
    answer: (
      new SealedAnswerUrls(key).open(answer.rows[0]!.response_body, 'payout_url') as { payout_url: string }
    ).payout_url,
  };
}

async function rotate(
  env: Record<string, string>,
): Promise<{ code: number; lines: Record<string, unknown>[]; errors: string[] }> {
  const lines: Record<string, unknown>[] = [];
  const errors: string[] = [];
  const code = await runRotation(
    [],
    env,
    (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    (line) => errors.push(line),
  );
  return { code, lines, errors };
}

const byTable = (lines: Record<string, unknown>[], field: string) =>
  Object.fromEntries(lines.filter((line) => 'table' in line).map((line) => [line.table, line[field]]));

describe.each(testBackends())('npm run rotate-encryption-key on $name', (backend) => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  let database: CliDatabase;
  let written: Written;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await cliDatabase(backend.name);
    written = await usingCliDatabase(database, async (db) => {
      await migrate(db);
      return writeUnder(db, keyA);
    });
    env = { ...database.env, ENCRYPTION_KEY: keyB.toString('base64') };
  });
  afterAll(async () => {
    await database.drop();
  });

  it('finds every ciphertext unreadable under B alone before the rotation, and changes nothing', async () => {
    const run = await rotate(env);
    expect(run.code).toBe(ROTATION_EXIT.undecryptable);
    expect(byTable(run.lines, 'undecryptable')).toEqual(
      Object.fromEntries(TABLES.map((table) => [table, 1])),
    );
    expect(byTable(run.lines, 'reencrypted')).toEqual(Object.fromEntries(TABLES.map((table) => [table, 0])));
    // Row ids are named, never a ciphertext or a secret.
    const named = JSON.stringify(run.lines);
    expect(named).toContain(written.credentialId);
    expect(named).not.toContain(written.checkoutSecret);
    expect(named).not.toContain('v1.');
    await usingCliDatabase(database, async (db) => {
      await expect(readUnder(db, keyB, written)).rejects.toThrow(/does not decrypt/);
    });
  });

  it('re-encrypts everything under B with A as previous, then finds nothing left to do', async () => {
    const first = await rotate({ ...env, ENCRYPTION_KEY_PREVIOUS: keyA.toString('base64') });
    expect(first.errors).toEqual([]);
    expect(first.code).toBe(ROTATION_EXIT.ok);
    expect(byTable(first.lines, 'reencrypted')).toEqual(
      Object.fromEntries(TABLES.map((table) => [table, 1])),
    );

    const again = await rotate({ ...env, ENCRYPTION_KEY_PREVIOUS: keyA.toString('base64') });
    expect(again.code).toBe(ROTATION_EXIT.ok);
    expect(byTable(again.lines, 'reencrypted')).toEqual(
      Object.fromEntries(TABLES.map((table) => [table, 0])),
    );
    expect(byTable(again.lines, 'already_current')).toEqual(
      Object.fromEntries(TABLES.map((table) => [table, 1])),
    );
  });

  it('leaves everything readable under B alone: A can go', async () => {
    const check = await rotate(env);
    expect(check.code).toBe(ROTATION_EXIT.ok);
    expect(check.lines.at(-1)).toEqual({
      msg: 'every ciphertext is under ENCRYPTION_KEY',
      reencrypted: 0,
      undecryptable: 0,
    });
    await usingCliDatabase(database, async (db) => {
      await expect(readUnder(db, keyB, written)).resolves.toEqual({
        checkoutSecret: written.checkoutSecret,
        webhookSecret: written.webhookSecret,
        details: WALLET,
        answer: written.answerUrl,
      });
    });
  });

  it('refuses to run without ENCRYPTION_KEY, or with arguments (exit 2)', async () => {
    const bare = await rotate({ ...database.env });
    expect(bare.code).toBe(ROTATION_EXIT.cannotRun);
    expect(bare.errors.join('\n')).toMatch(/set ENCRYPTION_KEY/);
    const lines: string[] = [];
    expect(
      await runRotation(
        ['--now'],
        env,
        (line) => lines.push(line),
        (line) => lines.push(line),
      ),
    ).toBe(ROTATION_EXIT.cannotRun);
    expect(lines.join('\n')).toMatch(/unexpected arguments/);
  });
});
