import { isReceivingDetails, ReceivingDetails } from '@payouts/domain';
import type { SqlClient } from '@payouts/database';
// SecretBox is not (yet) exported by @payouts/accounts' index; it is the same class the accounts
// repository uses for the checkout API secret.
import { SecretBox } from '@payouts/accounts';
import { ReceivingDetailsVault } from './receiving-details-vault';

const SAVE_SQL = `INSERT INTO claim_receiving_details (payout_id, details_ciphertext, saved_at)
  VALUES ($1, $2, now())
  ON CONFLICT (payout_id) DO UPDATE
    SET details_ciphertext = EXCLUDED.details_ciphertext, saved_at = EXCLUDED.saved_at`;

const LOAD_SQL = 'SELECT details_ciphertext FROM claim_receiving_details WHERE payout_id = $1';

const DELETE_SQL = 'DELETE FROM claim_receiving_details WHERE payout_id = $1';

/** Payout ids are short; the bound matches the column's check. */
const MAX_PAYOUT_ID_LENGTH = 191;

/**
 * The vault in PostgreSQL (PGlite or a server): one row per payout holding the details as JSON
 * encrypted with AES-256-GCM (SecretBox, fresh IV each save). The associated data names the
 * purpose and the payout, so a ciphertext copied onto another payout's row, or into another
 * table encrypted with the same key, does not decrypt. A row that does not decrypt is an error,
 * never "no details": a wrong ENCRYPTION_KEY must stop the payout, not look like a recipient who
 * chose nothing. Errors never carry the details.
 */
export class PostgresReceivingDetailsVault implements ReceivingDetailsVault {
  readonly #db: SqlClient;
  readonly #box: SecretBox;

  constructor(db: SqlClient, encryptionKey: Buffer) {
    this.#db = db;
    this.#box = new SecretBox(encryptionKey);
  }

  async save(payoutId: string, details: ReceivingDetails): Promise<void> {
    checkPayoutId(payoutId);
    if (!isReceivingDetails(details)) {
      // The pages store only what parseReceivingDetails returned; anything else is a bug.
      throw new TypeError('refusing to store receiving details that parseReceivingDetails would not produce');
    }
    const ciphertext = this.#box.encrypt(JSON.stringify(details), associatedData(payoutId));
    await this.#db.query(SAVE_SQL, [payoutId, ciphertext]);
  }

  async load(payoutId: string): Promise<ReceivingDetails | null> {
    checkPayoutId(payoutId);
    const result = await this.#db.query<{ details_ciphertext: string }>(LOAD_SQL, [payoutId]);
    const row = result.rows[0];
    if (!row) return null;
    // SecretBox's error names no key, ciphertext or plaintext.
    const json = this.#box.decrypt(row.details_ciphertext, associatedData(payoutId));
    let details: unknown;
    try {
      details = JSON.parse(json);
    } catch {
      throw new Error(`the receiving details of payout ${payoutId} are not JSON`);
    }
    if (!isReceivingDetails(details)) {
      throw new Error(`the receiving details of payout ${payoutId} are not well-formed`);
    }
    return details;
  }

  /**
   * Forgets the details (not part of the port): for when the payout is final and the rail no
   * longer needs them, so card and account numbers are kept no longer than the payout needs.
   * Returns whether there was anything to forget.
   */
  async forget(payoutId: string): Promise<boolean> {
    checkPayoutId(payoutId);
    const result = await this.#db.query(DELETE_SQL, [payoutId]);
    return result.rowCount > 0;
  }
}

function associatedData(payoutId: string): string {
  return `receiving_details:${payoutId}`;
}

function checkPayoutId(payoutId: string): void {
  if (typeof payoutId !== 'string' || payoutId.length === 0 || payoutId.length > MAX_PAYOUT_ID_LENGTH) {
    throw new RangeError(`payoutId must be a string of 1 to ${MAX_PAYOUT_ID_LENGTH} characters`);
  }
}
