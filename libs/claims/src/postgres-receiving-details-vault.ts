import { isReceivingDetails, ReceivingDetails } from '@payouts/domain';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import type { PlannedRow } from '@payouts/write-side';
// SecretBox is not (yet) exported by @payouts/accounts' index; it is the same class the accounts
// repository uses for the checkout API secret.
import { KeyMaterial, SecretBox } from '@payouts/accounts';
import { ReceivingDetailsChangedError, ReceivingDetailsVault } from './receiving-details-vault';

// A save that meets a confirm in flight waits for its row lock, then sees confirmed_at and writes
// nothing: once confirmed, the details are what the payout is sent to.
const SAVE_SQL = `INSERT INTO claim_receiving_details (payout_id, details_ciphertext, saved_at)
  VALUES ($1, $2, now())
  ON CONFLICT (payout_id) DO UPDATE
    SET details_ciphertext = EXCLUDED.details_ciphertext, saved_at = EXCLUDED.saved_at
    WHERE claim_receiving_details.confirmed_at IS NULL
  RETURNING payout_id`;

const LOAD_SQL = 'SELECT details_ciphertext FROM claim_receiving_details WHERE payout_id = $1';

// Seals exactly the save that was shown and loaded (every save has its own ciphertext: a fresh IV).
const SEAL_SQL = `UPDATE claim_receiving_details SET confirmed_at = now()
  WHERE payout_id = $1 AND details_ciphertext = $2 AND confirmed_at IS NULL
  RETURNING payout_id`;

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

  constructor(db: SqlClient, encryptionKey: KeyMaterial) {
    this.#db = db;
    this.#box = new SecretBox(encryptionKey);
  }

  async save(payoutId: string, details: ReceivingDetails): Promise<boolean> {
    checkPayoutId(payoutId);
    if (!isReceivingDetails(details)) {
      // The pages store only what parseReceivingDetails returned; anything else is a bug.
      throw new TypeError('refusing to store receiving details that parseReceivingDetails would not produce');
    }
    const ciphertext = this.#box.encrypt(JSON.stringify(details), receivingDetailsAssociatedData(payoutId));
    const saved = await this.#db.query(SAVE_SQL, [payoutId, ciphertext]);
    return saved.rows.length === 1;
  }

  async load(payoutId: string): Promise<ReceivingDetails | null> {
    return (await this.loadForConfirm(payoutId))?.details ?? null;
  }

  async loadForConfirm(payoutId: string): Promise<{ details: ReceivingDetails; saved: string } | null> {
    checkPayoutId(payoutId);
    const result = await this.#db.query<{ details_ciphertext: string }>(LOAD_SQL, [payoutId]);
    const row = result.rows[0];
    if (!row) return null;
    return { details: this.#open(payoutId, row.details_ciphertext), saved: row.details_ciphertext };
  }

  async sealWithin(tx: SqlQueryable, payoutId: string, saved: string): Promise<void> {
    checkPayoutId(payoutId);
    const sealed = await tx.query(SEAL_SQL, [payoutId, saved]);
    if (sealed.rows.length !== 1) throw new ReceivingDetailsChangedError(payoutId);
  }

  sealRow(payoutId: string, saved: string): PlannedRow {
    checkPayoutId(payoutId);
    return {
      statement: SEAL_SQL,
      params: [payoutId, saved],
      whenNoRow: () => new ReceivingDetailsChangedError(payoutId),
    };
  }

  #open(payoutId: string, ciphertext: string): ReceivingDetails {
    // SecretBox's error names no key, ciphertext or plaintext.
    const json = this.#box.decrypt(ciphertext, receivingDetailsAssociatedData(payoutId));
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

/** What binds a ciphertext to its payout's row (also for `npm run rotate-encryption-key`). */
export function receivingDetailsAssociatedData(payoutId: string): string {
  return `receiving_details:${payoutId}`;
}

function checkPayoutId(payoutId: string): void {
  if (typeof payoutId !== 'string' || payoutId.length === 0 || payoutId.length > MAX_PAYOUT_ID_LENGTH) {
    throw new RangeError(`payoutId must be a string of 1 to ${MAX_PAYOUT_ID_LENGTH} characters`);
  }
}
