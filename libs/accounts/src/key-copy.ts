/**
 * The holder's own copy of a 32-byte key, refused when it is anything else: later changes to the
 * caller's buffer never reach a key in use.
 */
export function copyOf32ByteKey(key: Buffer, name: string): Buffer {
  if (!Buffer.isBuffer(key) || key.length !== 32) throw new Error(`the ${name} must be 32 bytes`);
  return Buffer.from(key);
}
