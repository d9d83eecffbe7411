import { KeyMaterial, SecretBox } from '@payouts/accounts';

type UrlField = 'url' | 'payout_url';

/** Where the encrypted URL rides in a stored answer; never part of an answer sent. */
const SEALED = 'sealed_url';

/**
 * A claim link or handoff URL inside a stored idempotent answer (kept 30 days): stored encrypted
 * with the installation's key, the field and payout in the associated data, so the answer store
 * never holds a working link in clear; opened again when the answer is replayed, so a retry whose
 * first answer was lost gets the same URL (docs/design.md#idempotency: a replay answers the stored body).
 */
export class SealedAnswerUrls {
  readonly #box: SecretBox;

  constructor(encryptionKey: KeyMaterial) {
    this.#box = new SecretBox(encryptionKey);
  }

  /** The answer to store: `field` empty, its URL sealed beside it. */
  seal<T extends { payout_id: string }>(answer: T, field: UrlField, url: string): Record<string, unknown> {
    return {
      ...answer,
      [field]: null,
      [SEALED]: this.#box.encrypt(url, associatedData(field, answer.payout_id)),
    };
  }

  /** The stored answer as first sent: its URL opened back into `field`. Other bodies pass unchanged. */
  open(stored: unknown, field: UrlField): unknown {
    if (typeof stored !== 'object' || stored === null) return stored;
    const { [SEALED]: sealed, ...answer } = stored as Record<string, unknown>;
    if (typeof sealed !== 'string' || typeof answer.payout_id !== 'string') return stored;
    // A URL that does not decrypt (a changed ENCRYPTION_KEY) is an error, never a null link.
    return { ...answer, [field]: this.#box.decrypt(sealed, associatedData(field, answer.payout_id)) };
  }

  /**
   * For `npm run rotate-encryption-key`: the stored answer with its URL sealed again under the
   * current key, or null when there is nothing to do (no sealed URL, or the current key sealed it).
   * Throws when the URL opens under none of the keys.
   */
  resealed(stored: unknown): Record<string, unknown> | null {
    if (typeof stored !== 'object' || stored === null) return null;
    const answer = stored as Record<string, unknown>;
    const sealed = answer[SEALED];
    const payoutId = answer.payout_id;
    if (typeof sealed !== 'string' || typeof payoutId !== 'string') return null;
    // The emptied field names the associated data; a body is only ever sealed on one of them.
    for (const field of URL_FIELDS.filter((name) => answer[name] === null)) {
      let opened: { plaintext: string; underCurrentKey: boolean };
      try {
        opened = this.#box.open(sealed, associatedData(field, payoutId));
      } catch {
        continue;
      }
      if (opened.underCurrentKey) return null;
      return { ...answer, [SEALED]: this.#box.encrypt(opened.plaintext, associatedData(field, payoutId)) };
    }
    throw new Error(`the sealed URL of the stored answer for payout ${payoutId} does not decrypt`);
  }
}

const URL_FIELDS: readonly UrlField[] = ['url', 'payout_url'];

function associatedData(field: UrlField, payoutId: string): string {
  return `idempotent-answer-${field}:${payoutId}`;
}
