import { Socket } from 'node:net';

type WriteMethods = Record<'_write' | '_writev', (this: Socket, ...args: unknown[]) => unknown>;

/**
 * Runs `work` and counts the socket writes this process made meanwhile (`onWrite` hears of each as
 * it is made): each is a system call, and on a small machine the sender pays the loopback's delivery
 * too. Only meaningful while nothing else in the process writes to a socket.
 */
export async function countSocketWrites<T>(
  work: () => Promise<T>,
  onWrite: () => void = () => undefined,
): Promise<{ result: T; writes: number }> {
  const prototype = Socket.prototype as unknown as WriteMethods;
  const originals: WriteMethods = { _write: prototype._write, _writev: prototype._writev };
  let writes = 0;
  for (const method of ['_write', '_writev'] as const) {
    const original = originals[method];
    prototype[method] = function (this: Socket, ...args: unknown[]) {
      writes += 1;
      onWrite();
      return original.apply(this, args);
    };
  }
  try {
    const result = await work();
    return { result, writes };
  } finally {
    Object.assign(prototype, originals);
  }
}
