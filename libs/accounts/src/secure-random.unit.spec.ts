import { secureRandomBytes } from './secure-random';

describe('secureRandomBytes', () => {
  it('gives the size asked for, and never the same bytes twice', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i += 1) {
      const bytes = secureRandomBytes(12);
      expect(bytes).toHaveLength(12);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(5_000);
  });

  it('never changes bytes it handed out when the pool is refilled', () => {
    const kept = Array.from({ length: 50 }, () => secureRandomBytes(32));
    const copies = kept.map((bytes) => Buffer.from(bytes));
    // Several refills of the 8 KiB pool.
    for (let i = 0; i < 2_000; i += 1) secureRandomBytes(32);
    kept.forEach((bytes, index) => expect(bytes.equals(copies[index]!)).toBe(true));
  });

  it('hands out a whole buffer even when the pool has fewer bytes left', () => {
    for (let i = 0; i < 300; i += 1) expect(secureRandomBytes(1000)).toHaveLength(1000);
  });

  it('refuses sizes outside 1 to 8192', () => {
    for (const size of [0, -1, 1.5, 8193, Number.NaN]) {
      expect(() => secureRandomBytes(size)).toThrow(RangeError);
    }
  });
});
