import { EncryptionKeys, SecretBox } from '@payouts/accounts';
import type { SqlClient } from '@payouts/database';
import { SealedAnswerUrls } from '@payouts/payouts';
import { AnyCiphertextStore, CIPHERTEXT_STORES, CiphertextStore, RotationKeys } from './stored-ciphertexts';

/** Rows read and written per transaction: short transactions, so the apps can keep running. */
export const ROTATION_BATCH_ROWS = 500;

export interface StoreReport {
  store: string;
  /** Rows read. */
  scanned: number;
  /** Written again under ENCRYPTION_KEY (they were under ENCRYPTION_KEY_PREVIOUS). */
  reencrypted: number;
  alreadyCurrent: number;
  /** Changed by an app between the read and the write: the app wrote it under ENCRYPTION_KEY. */
  changedMeanwhile: number;
  /** Open under neither key: an id each (never a ciphertext), for the operator to look at. */
  undecryptable: string[];
}

/**
 * Writes every stored ciphertext that the previous key wrote again under the current key, one
 * batch per transaction, each row only where it is still what was read. Running it again finds
 * nothing more to do; with ENCRYPTION_KEY alone it checks that everything opens under it.
 */
export async function rotateStoredCiphertexts(
  db: SqlClient,
  keys: EncryptionKeys,
  options: { batchRows?: number; stores?: readonly AnyCiphertextStore[] } = {},
): Promise<StoreReport[]> {
  const rotation: RotationKeys = { box: new SecretBox(keys), answers: new SealedAnswerUrls(keys) };
  const batchRows = options.batchRows ?? ROTATION_BATCH_ROWS;
  const reports: StoreReport[] = [];
  for (const store of options.stores ?? CIPHERTEXT_STORES) {
    reports.push(await store.with((typed) => rotateStore(db, typed, rotation, batchRows)));
  }
  return reports;
}

async function rotateStore<Row>(
  db: SqlClient,
  store: CiphertextStore<Row>,
  keys: RotationKeys,
  batchRows: number,
): Promise<StoreReport> {
  const report: StoreReport = {
    store: store.name,
    scanned: 0,
    reencrypted: 0,
    alreadyCurrent: 0,
    changedMeanwhile: 0,
    undecryptable: [],
  };
  let after: Row | null = null;
  for (;;) {
    const page = await db.query<Row & object>(store.page.sql, store.page.params(after, batchRows));
    const rows: (Row & object)[] = page.rows;
    if (rows.length === 0) break;
    await db.transaction(async (tx) => {
      for (const row of rows) {
        let rewritten: Row | null;
        try {
          rewritten = store.rewrite(row, keys);
        } catch {
          report.undecryptable.push(rowName(row));
          continue;
        }
        if (rewritten === null) {
          report.alreadyCurrent += 1;
          continue;
        }
        const updated = await tx.query(store.update.sql, store.update.params(row, rewritten));
        if (updated.rowCount === 1) report.reencrypted += 1;
        else report.changedMeanwhile += 1;
      }
    });
    report.scanned += rows.length;
    after = rows.at(-1)!;
    if (rows.length < batchRows) break;
  }
  return report;
}

/** The row's key columns: enough to find it, nothing secret. */
function rowName(row: object): string {
  const entries = Object.entries(row).filter(([column]) => !/ciphertext|response_body/.test(column));
  return entries.map(([, value]) => String(value)).join('/');
}
