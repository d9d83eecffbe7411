import { parentPort, workerData } from 'node:worker_threads';
import type { FeedKey } from '../feed/audit-feed';
import { ChainChecker } from './chain-checker';
import type { FromChainWorker, ToChainWorker } from './chain-thread';

/**
 * The chain's thread (chain-thread.ts starts it): the tamper check, and the folds of the payouts'
 * streams (fold-split.ts), over pages the verify pass sends, in order. Each message is handled after the one before it has finished, so link pages
 * always arrive before the events that need them.
 */
const port = parentPort;
if (port === null) throw new Error('chain-worker runs as a worker thread of verify');
const checker = new ChainChecker((workerData as { checkpoint: FeedKey }).checkpoint);
let turn: Promise<void> = Promise.resolve();

port.on('message', (message: ToChainWorker) => {
  turn = turn.then(async () => {
    const reply = await handle(message);
    if (reply !== null) port.postMessage(reply);
  });
});

async function handle(message: ToChainWorker): Promise<FromChainWorker | null> {
  try {
    switch (message.kind) {
      case 'links':
        checker.links(message.flat);
        return null;
      case 'linksEnd':
        checker.linksEnd();
        return null;
      case 'events':
        return { kind: 'events', findings: await checker.events(message.first, message.flat) };
      case 'finish':
        return { kind: 'finish', end: await checker.finish() };
    }
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}
