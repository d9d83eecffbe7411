import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { loadConfig } from '@payouts/config';
import { CreditFundsCommand, PayoutsModule, SetLedgerLimitsCommand } from '@payouts/payouts';
import { InfrastructureModule } from '@payouts/platform';

/**
 * Sets generous limits and credits funds on one account's ledger (tests and benchmarks).
 * Usage: node dist/tools/load/seed-account.js <account_id> <environment> <funds> <fee>
 * Configured like the apps (DATABASE_URL, and ENCRYPTION_KEY with it: PayoutsModule's claim-link key).
 */
async function main(): Promise<void> {
  const [accountId, environment, funds, fee] = process.argv.slice(2);
  if (!accountId || (environment !== 'sandbox' && environment !== 'production') || !funds || !fee) {
    throw new Error('usage: seed-account <account_id> <sandbox|production> <funds> <fee>');
  }
  const config = { ...loadConfig(), logLevel: 'silent' as const };

  @Module({ imports: [InfrastructureModule.forRoot(config, 'seed'), PayoutsModule] })
  class SeedModule {}

  const app = await NestFactory.createApplicationContext(SeedModule, { logger: false });
  const commands = app.get(CommandBus);
  await commands.execute(
    new SetLedgerLimitsCommand(accountId, environment, {
      feePerPayout: fee,
      minPayout: '1.00',
      maxPayout: '10000.00',
      maxOpenExposure: '1000000.00',
      maxPendingPerCustomer: 1000,
    }),
  );
  await commands.execute(new CreditFundsCommand(accountId, environment, funds, 'seed'));
  await app.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
