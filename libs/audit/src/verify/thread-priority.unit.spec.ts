import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CHAIN_THREAD_NICENESS, lowerThisThreadsPriority } from './thread-priority';

describe("verify's chain thread priority", () => {
  it('is lowered on Linux only, and a refusal leaves verify running', () => {
    const asked: number[] = [];
    const set = (priority: number) => void asked.push(priority);
    expect(lowerThisThreadsPriority('darwin', set)).toBe(false);
    expect(lowerThisThreadsPriority('win32', set)).toBe(false);
    expect(asked).toEqual([]);
    expect(lowerThisThreadsPriority('linux', set)).toBe(true);
    expect(asked).toEqual([CHAIN_THREAD_NICENESS]);
    const refuse = () => {
      throw new Error('EACCES');
    };
    expect(lowerThisThreadsPriority('linux', refuse)).toBe(false);
  });

  // The premise: on Linux a priority set for pid 0 is the calling thread's alone, so the chain
  // thread lowering its own leaves verify's main thread (here, the test's) as it was.
  (process.platform === 'linux' ? it : it.skip)(
    "lowers only the calling thread's priority on Linux",
    async () => {
      const before = getPriority();
      const inThread = await new Promise<number>((resolve, reject) => {
        const worker = new Worker(
          `const os = require('node:os');
           os.setPriority(${CHAIN_THREAD_NICENESS});
           require('node:worker_threads').parentPort.postMessage(os.getPriority());`,
          { eval: true },
        );
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(inThread).toBe(Math.max(before, CHAIN_THREAD_NICENESS));
      expect(getPriority()).toBe(before);
    },
  );
});
