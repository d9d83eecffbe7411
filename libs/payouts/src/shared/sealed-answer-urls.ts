import { SecretBox } from '@payouts/accounts';

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

  constructor(encryptionKey: Buffer) {
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
}

function associatedData(field: UrlField, payoutId: string): string {
  return `idempotent-answer-${field}:${payoutId}`;
}
