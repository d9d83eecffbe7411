import { configFromEnv } from './config';
import { startShop } from './shop';

/** `npm start`: the shop with the settings of the environment (README.md), until Ctrl-C. */
async function main(): Promise<void> {
  const shop = await startShop(configFromEnv(process.env));
  const stop = () => void shop.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
