import { createHmac } from 'node:crypto';
import { copyOf32ByteKey, deriveSubkeys, KeyMaterial, secureRandomBytes } from '@payouts/accounts';
import { AccessToken, sha256Hex } from './identifiers';

/** HKDF info of the claim-link key: its own key, never the encryption key itself. */
const KEY_INFO = 'payouts/claim-links/v1';

/**
 * Claim-link tokens derived from the installation's key rather than kept anywhere:
 * `<payout_id>.<HMAC-SHA256(key, "<payout_id>.<link_id>"), base64url>`, the shape of the random
 * handoff tokens (43 characters after the dot). Each link has a new random link id (96 bits), so a
 * rotation gives a token unrelated to the one it replaces. The payout's stream keeps the link id
 * and the token's hash, which is all Get or Rotate Claim Link needs to show the current link
 * again: nothing stores the token, not even encrypted.
 *
 * A token none of its keys issued (the key was changed since) is not derived again: the hash
 * tells, and the link cannot be shown again until it is rotated (`link_unavailable`,
 * docs/design.md#delivery-links-and-expiry). During an ENCRYPTION_KEY rotation the previous key's
 * subkey is kept to show again the links it issued; new links use the current one only.
 */
export class ClaimLinkTokens {
  /** The current key first, then the previous one during a rotation. */
  readonly #keys: readonly Buffer[];

  constructor(keys: Buffer | readonly Buffer[]) {
    const list = Buffer.isBuffer(keys) ? [keys] : keys;
    if (list.length === 0) throw new Error('the claim-link key must be 32 bytes');
    this.#keys = list.map((key) => copyOf32ByteKey(key, 'claim-link key'));
  }

  /** The claim-link keys of an installation, derived (HKDF-SHA256) from its ENCRYPTION_KEY(s). */
  static fromEncryptionKey(encryptionKey: KeyMaterial): ClaimLinkTokens {
    return new ClaimLinkTokens(deriveSubkeys(encryptionKey, KEY_INFO));
  }

  /** A new link for the payout: a fresh link id, its token (shown once) and the token's hash. */
  issue(payoutId: string): AccessToken {
    const id = `lnk_${secureRandomBytes(12).toString('hex')}`;
    const token = this.tokenOf(this.#keys[0]!, payoutId, id);
    return { id, token, tokenHash: sha256Hex(token) };
  }

  /** The link's token again, or null when none of these keys issued the link whose hash is given. */
  shownAgain(payoutId: string, link: { linkId: string; tokenHash: string }): string | null {
    for (const key of this.#keys) {
      const token = this.tokenOf(key, payoutId, link.linkId);
      if (sha256Hex(token) === link.tokenHash) return token;
    }
    return null;
  }

  private tokenOf(key: Buffer, payoutId: string, linkId: string): string {
    const mac = createHmac('sha256', key).update(`${payoutId}.${linkId}`).digest('base64url');
    return `${payoutId}.${mac}`;
  }
}
