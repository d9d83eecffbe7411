// Accounts, per-environment settings and credentials (docs/design.md#credentials-and-scopes). Framework-free.
export type { Environment, CredentialKind, PayoutScope } from './tokens';
export { parseTokenPrefix } from './tokens';
export { normaliseOrigin, originOf } from './origins';
export { AccountsRepository } from './accounts.repository';
export { SecretBox } from './secret-box';
export { secureRandomBytes } from './secure-random';
export { copyOf32ByteKey } from './key-copy';
export { resolveEncryptionKey, deriveSubkey } from './encryption-key';
export { resolveEncryptionKeys, deriveSubkeys, keysToTry } from './encryption-keys';
export type { EncryptionKeys, KeyMaterial } from './encryption-keys';
export type { IssuedCredential, CredentialSummary, EnvironmentSettings } from './accounts.repository';
export type { AuthenticatedCredential } from './credential-look-up';
export { TIME_ZONES, isKnownTimeZone } from './time-zones';
