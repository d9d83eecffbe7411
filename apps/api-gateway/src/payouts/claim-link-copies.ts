import { createHash } from 'node:crypto';
import { SecretBox } from '@payouts/accounts';
import { writeRow } from '@payouts/database';
import type { RowStatement, SqlClient, SqlQueryable } from '@payouts/database';

// Written for many rows (writeRow): a group commit's link payouts keep their copies in one statement.
const KEEP_ROWS: RowStatement = {
  sql: `INSERT INTO claim_link_copies (payout_id, token_ciphertext, kept_at)
  SELECT c.payout_id, c.token_ciphertext, now() FROM unnest($1::text[], $2::text[]) AS c(payout_id, token_ciphertext)
  ON CONFLICT (payout_id) DO UPDATE SET token_ciphertext = EXCLUDED.token_ciphertext, kept_at = EXCLUDED.kept_at`,
};

const LOAD_SQL = 'SELECT token_ciphertext FROM claim_link_copies WHERE payout_id = $1';

/**
 * The copy of each link payout's current claim link (migration 0009), so the link can be shown
 * again. Encrypted with the installation's key, the purpose and payout in the associated data. A
 * copy is answered only when its hash is the payout's current link's: a copy left behind by a
 * rotation whose own copy was lost can never show an invalidated link.
 */
export class ClaimLinkCopies {
  readonly #db: SqlClient;
  readonly #box: SecretBox;

  constructor(db: SqlClient, encryptionKey: Buffer) {
    this.#db = db;
    this.#box = new SecretBox(encryptionKey);
  }

  /** Inside the transaction that issues the link, so the link and its copy commit together. */
  async keepWithin(tx: SqlQueryable, payoutId: string, token: string): Promise<void> {
    await writeRow(tx, KEEP_ROWS, [payoutId, this.#box.encrypt(token, associatedData(payoutId))]);
  }

  /** The current link's token, or null when no copy of that very link is kept. */
  async current(payoutId: string, currentTokenHash: string): Promise<string | null> {
    const result = await this.#db.query<{ token_ciphertext: string }>(LOAD_SQL, [payoutId]);
    const row = result.rows[0];
    if (!row) return null;
    // A copy that does not decrypt (a changed ENCRYPTION_KEY) is an error, never "no link".
    const token = this.#box.decrypt(row.token_ciphertext, associatedData(payoutId));
    const hash = createHash('sha256').update(token).digest('hex');
    return hash === currentTokenHash ? token : null;
  }
}

function associatedData(payoutId: string): string {
  return `claim-link-copy:${payoutId}`;
}
