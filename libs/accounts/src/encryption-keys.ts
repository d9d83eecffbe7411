import type { AppConfig } from '@payouts/config';
import { deriveSubkey, resolveEncryptionKey } from './encryption-key';
import { copyOf32ByteKey } from './key-copy';

/**
 * The installation's keys while ENCRYPTION_KEY is rotated (docs/operations.md#rotate-encryption_key):
 * everything new is encrypted, signed and derived under `current`; `previous`
 * (ENCRYPTION_KEY_PREVIOUS), while it is set, still opens and verifies what the old key made, so
 * the switch breaks nothing already stored or handed out.
 */
export interface EncryptionKeys {
  readonly current: Buffer;
  readonly previous?: Buffer;
}

/** One key (no rotation under way) or the pair: what every keyed component accepts. */
export type KeyMaterial = Buffer | EncryptionKeys;

/** ENCRYPTION_KEY (or the embedded start's key file) and, during a rotation, ENCRYPTION_KEY_PREVIOUS. */
export function resolveEncryptionKeys(config: AppConfig): EncryptionKeys {
  const current = resolveEncryptionKey(config);
  const previous = config.encryptionKeyPrevious;
  return previous === undefined ? { current } : { current, previous };
}

/**
 * The keys to try, current first, each the holder's own copy. A previous key equal to the
 * current one is left out: it could only make every check run twice.
 */
export function keysToTry(material: KeyMaterial, name: string): readonly Buffer[] {
  const { current, previous } = Buffer.isBuffer(material)
    ? { current: material, previous: undefined }
    : material;
  const keys = [copyOf32ByteKey(current, name)];
  if (previous !== undefined && !previous.equals(current))
    keys.push(copyOf32ByteKey(previous, `previous ${name}`));
  return keys;
}

/** The purpose's subkey (deriveSubkey) of each key to try, current first. */
export function deriveSubkeys(material: KeyMaterial, info: string): readonly Buffer[] {
  return keysToTry(material, 'encryption key').map((key) => deriveSubkey(key, info));
}
