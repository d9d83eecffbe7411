import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { loadConfig } from '@payouts/config';
import { CreatePayoutCommand, PayoutsModule } from '@payouts/payouts';
import { InfrastructureModule } from '@payouts/platform';

/**
 * One of several processes creating payouts on one account at once, through the command bus
 * against the configured database (the multi-process money-invariant test starts several).
 * Usage: node dist/tools/load/create-payouts.js <account_id> <environment> <count> <amount> <prefix>
 * Prints {"succeeded":N,"refused":{"<code>":N}}. Configured like the apps (DATABASE_URL, and
 * ENCRYPTION_KEY with it: the payouts' claim links are derived from it).
 */
async function main(): Promise<void> {
  const [accountId, environment, count, amount, prefix] = process.argv.slice(2);
  if (
    !accountId ||
    (environment !== 'sandbox' && environment !== 'production') ||
    !count ||
    !amount ||
    !prefix
  ) {
    throw new Error('usage: create-payouts <account_id> <sandbox|production> <count> <amount> <prefix>');
  }
  const config = { ...loadConfig(), logLevel: 'silent' as const };

  @Module({ imports: [InfrastructureModule.forRoot(config, 'load'), PayoutsModule] })
  class LoadModule {}

  const app = await NestFactory.createApplicationContext(LoadModule, { logger: false });
  const commands = app.get(CommandBus);
  const refused: Record<string, number> = {};
  let succeeded = 0;
  await Promise.all(
    Array.from({ length: Number(count) }, async (_, i) => {
      try {
        await commands.execute(
          new CreatePayoutCommand({
            accountId,
            environment,
            amount,
            merchantReference: `${prefix}-${i}`,
            delivery: 'link',
            customerEmail: `${prefix}-${i}@example.com`,
          }),
        );
        succeeded += 1;
      } catch (error) {
        const code = (error as { code?: string }).code ?? (error as Error).name;
        refused[code] = (refused[code] ?? 0) + 1;
      }
    }),
  );
  await app.close();
  process.stdout.write(`${JSON.stringify({ succeeded, refused })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
