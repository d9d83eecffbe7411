import { randomBytes, randomUUID } from 'node:crypto';
import { ReceivingDetails } from '@payouts/domain';
import { testBackends, TestDatabase } from '@payouts/testing';
import { PostgresReceivingDetailsVault } from './postgres-receiving-details-vault';
import { ReceivingDetailsChangedError } from './receiving-details-vault';

const BANK: ReceivingDetails = {
  method: 'bank_transfer',
  accountHolder: 'Zoë Ångström',
  routingNumber: '110000000',
  accountNumber: '000123456789',
};
const CARD: ReceivingDetails = {
  method: 'debit_card',
  cardholderName: 'Ada Lovelace',
  cardNumber: '4000056655665556',
  expiryMonth: 8,
  expiryYear: 2031,
};
const WALLET: ReceivingDetails = { method: 'wallet', walletHandle: '+14155550100' };

function newPayoutId(): string {
  return `po_${randomUUID()}`;
}

describe.each(testBackends())('the receiving-details vault on $name', (backend) => {
  let database: TestDatabase;
  const key = randomBytes(32);
  let vault: PostgresReceivingDetailsVault;

  beforeAll(async () => {
    database = await backend.open();
    vault = new PostgresReceivingDetailsVault(database.db, key);
  });
  afterAll(async () => {
    await database.drop();
  });

  async function storedCiphertext(payoutId: string): Promise<string> {
    const result = await database.db.query<{ details_ciphertext: string }>(
      'SELECT details_ciphertext FROM claim_receiving_details WHERE payout_id = $1',
      [payoutId],
    );
    return result.rows[0]!.details_ciphertext;
  }

  it.each([
    ['bank account', BANK],
    ['debit card', CARD],
    ['wallet', WALLET],
  ])('gives back the %s details it saved', async (_name, details) => {
    const payoutId = newPayoutId();
    await vault.save(payoutId, details);
    await expect(vault.load(payoutId)).resolves.toEqual(details);
  });

  it('answers null for a payout with no details saved', async () => {
    await expect(vault.load(newPayoutId())).resolves.toBeNull();
  });

  it('keeps the details encrypted at rest: the stored column holds none of them', async () => {
    const payoutId = newPayoutId();
    await vault.save(payoutId, BANK);
    await vault.save(newPayoutId(), CARD);
    const raw = await storedCiphertext(payoutId);
    expect(raw).toMatch(/^v1\./);
    for (const clear of ['000123456789', '123456789', '110000000', 'Zoë', 'Ångström', 'bank_transfer']) {
      expect(raw).not.toContain(clear);
    }
    // The whole table, as a dump would show it.
    const everything = await database.db.query<{ row: string }>(
      'SELECT t::text AS row FROM claim_receiving_details t',
    );
    const dump = everything.rows.map((r) => r.row).join('\n');
    for (const clear of ['4000056655665556', '5556', 'Lovelace', '000123456789', 'debit_card']) {
      expect(dump).not.toContain(clear);
    }
  });

  it('replaces the details when the recipient saves again, with a new ciphertext', async () => {
    const payoutId = newPayoutId();
    await vault.save(payoutId, BANK);
    const first = await storedCiphertext(payoutId);
    await vault.save(payoutId, WALLET);
    await expect(vault.load(payoutId)).resolves.toEqual(WALLET);
    await vault.save(payoutId, WALLET);
    expect(await storedCiphertext(payoutId)).not.toBe(first);
    await expect(vault.load(payoutId)).resolves.toEqual(WALLET);
  });

  it('fails to load with another key, and the error reveals nothing', async () => {
    const payoutId = newPayoutId();
    await vault.save(payoutId, CARD);
    const otherKey = new PostgresReceivingDetailsVault(database.db, randomBytes(32));
    const error = await otherKey.load(payoutId).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/does not decrypt/);
    expect(error?.message).not.toContain('4000056655665556');
    expect(error?.message).not.toContain(key.toString('base64'));
  });

  it("fails to load details copied onto another payout's row", async () => {
    const [original, other] = [newPayoutId(), newPayoutId()];
    await vault.save(original, BANK);
    await vault.save(other, WALLET);
    await database.db.query(
      'UPDATE claim_receiving_details SET details_ciphertext = $1 WHERE payout_id = $2',
      [await storedCiphertext(original), other],
    );
    await expect(vault.load(other)).rejects.toThrow(/does not decrypt/);
  });

  it('fails to load a row altered in the database', async () => {
    const payoutId = newPayoutId();
    await vault.save(payoutId, BANK);
    const parts = (await storedCiphertext(payoutId)).split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    await database.db.query(
      'UPDATE claim_receiving_details SET details_ciphertext = $1 WHERE payout_id = $2',
      [[...parts.slice(0, 3), body.toString('base64url')].join('.'), payoutId],
    );
    await expect(vault.load(payoutId)).rejects.toThrow(/does not decrypt/);
  });

  it('refuses to store details that the validator would not have produced', async () => {
    const payoutId = newPayoutId();
    const refused: unknown[] = [
      { ...BANK, routingNumber: '110000001' },
      { ...CARD, cardNumber: '4000056655665557' },
      { ...WALLET, walletHandle: 'not a handle' },
      { ...BANK, extra: 'field' },
      { method: 'cash' },
      null,
    ];
    for (const details of refused) {
      await expect(vault.save(payoutId, details as ReceivingDetails)).rejects.toThrow(TypeError);
    }
    await expect(vault.load(payoutId)).resolves.toBeNull();
  });

  it('refuses a missing or overlong payout id before touching the database', async () => {
    await expect(vault.save('', BANK)).rejects.toThrow(RangeError);
    await expect(vault.load('x'.repeat(192))).rejects.toThrow(RangeError);
  });

  it('forgets the details of a payout, and only of that payout', async () => {
    const [forgotten, kept] = [newPayoutId(), newPayoutId()];
    await vault.save(forgotten, CARD);
    await vault.save(kept, CARD);
    await expect(vault.forget(forgotten)).resolves.toBe(true);
    await expect(vault.forget(forgotten)).resolves.toBe(false);
    await expect(vault.load(forgotten)).resolves.toBeNull();
    await expect(vault.load(kept)).resolves.toEqual(CARD);
  });

  describe('sealed by the confirm', () => {
    it('keeps the confirmed details: a later save writes nothing and says so', async () => {
      const payoutId = newPayoutId();
      expect(await vault.save(payoutId, WALLET)).toBe(true);
      const chosen = await vault.loadForConfirm(payoutId);
      expect(chosen?.details).toEqual(WALLET);
      await database.db.transaction((tx) => vault.sealWithin(tx, payoutId, chosen!.saved));
      expect(await vault.save(payoutId, BANK)).toBe(false);
      await expect(vault.load(payoutId)).resolves.toEqual(WALLET);
    });

    it('refuses to seal details saved again since they were loaded, and seals nothing', async () => {
      const payoutId = newPayoutId();
      await vault.save(payoutId, WALLET);
      const shown = await vault.loadForConfirm(payoutId);
      await vault.save(payoutId, BANK); // another tab, between the confirm's load and its commit
      await expect(
        database.db.transaction((tx) => vault.sealWithin(tx, payoutId, shown!.saved)),
      ).rejects.toBeInstanceOf(ReceivingDetailsChangedError);
      // Not sealed: the recipient sees the bank details, and may still change them.
      expect(await vault.save(payoutId, CARD)).toBe(true);
      await expect(vault.load(payoutId)).resolves.toEqual(CARD);
    });

    it('makes a save that meets the confirm in flight wait for it, then write nothing', async () => {
      const payoutId = newPayoutId();
      await vault.save(payoutId, WALLET);
      const chosen = await vault.loadForConfirm(payoutId);
      let lateSave: Promise<boolean> | undefined;
      await database.db.transaction(async (tx) => {
        await vault.sealWithin(tx, payoutId, chosen!.saved);
        // Issued while the confirm's transaction holds the row (the server: a row lock; PGlite:
        // its one connection), so it can only run once the confirm has committed.
        lateSave = vault.save(payoutId, BANK);
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      await expect(lateSave).resolves.toBe(false);
      await expect(vault.load(payoutId)).resolves.toEqual(WALLET);
    });
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new PostgresReceivingDetailsVault(database.db, randomBytes(16))).toThrow(/32 bytes/);
  });
});
