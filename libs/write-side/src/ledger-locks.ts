import { Injectable } from '@nestjs/common';
import { KeyedMutex } from './keyed-mutex';

/**
 * One per process: a command that writes a ledger or a float commits on it alone. Keys are
 * always taken in one order (ledgers before floats, then by name), so two commands never wait on
 * each other's key.
 */
@Injectable()
export class LedgerLocks extends KeyedMutex {
  async runAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const ordered = [...new Set(keys)].sort(byLockOrder);
    const take = (index: number): Promise<T> =>
      index === ordered.length ? work() : this.run(ordered[index]!, () => take(index + 1));
    return take(0);
  }
}

function byLockOrder(a: string, b: string): number {
  const rank = (key: string) => (key.startsWith('float') ? 1 : 0);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
