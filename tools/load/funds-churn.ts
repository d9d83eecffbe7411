import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { CheckoutModule, CreateOrderCommand, OrderIds, PayOrderCommand } from '@payouts/checkout';
import { loadConfig } from '@payouts/config';
import { ledgerStreamId, OrderMethod } from '@payouts/domain';
import { CancelPayoutCommand, CreatePayoutCommand, PayoutsModule } from '@payouts/payouts';
import { InfrastructureModule } from '@payouts/platform';
import { MatureProceedsCommand, SettlementRuns, SettlementsModule } from '@payouts/settlements';

/**
 * One of several processes moving one account's money at once, every kind of command interleaved:
 * checkout orders paid (USD and EUR), payouts created and cancelled, proceeds matured, settlement
 * runs (the operator's run-now) and their completion. The funds-flow concurrency test starts
 * several on one PostgreSQL database, then checks the conservation equations (docs/design.md#conservation).
 * Usage: node dist/tools/load/funds-churn.js <account_id> <credential_id> <seed> <steps>
 * Prints {"done":{"<kind>":N},"refused":{"<code>":N}}. Configured like the apps (DATABASE_URL,
 * ENCRYPTION_KEY).
 */
async function main(): Promise<void> {
  const [accountArg, credentialArg, seedText, stepsText] = process.argv.slice(2);
  if (!accountArg || !credentialArg || !seedText || !stepsText) {
    throw new Error('usage: funds-churn <account_id> <credential_id> <seed> <steps>');
  }
  const accountId: string = accountArg;
  const credentialId: string = credentialArg;
  const config = { ...loadConfig(), logLevel: 'silent' as const };

  @Module({
    imports: [
      InfrastructureModule.forRoot(config, 'churn'),
      PayoutsModule,
      CheckoutModule,
      SettlementsModule,
    ],
  })
  class ChurnModule {}

  const app = await NestFactory.createApplicationContext(ChurnModule, { logger: false });
  const commands = app.get(CommandBus);
  const orderIds = app.get(OrderIds);
  const runs = app.get(SettlementRuns);
  const environment = 'sandbox' as const;
  let seed = Number(seedText);
  // A small deterministic generator (mulberry32), so a failing run can be repeated.
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const cents = (max: number): string =>
    `${1 + Math.floor(random() * max)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;

  const done: Record<string, number> = {};
  const refused: Record<string, number> = {};
  const created: string[] = [];
  const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);

  async function payOrder(): Promise<void> {
    const orderId = await orderIds.next();
    const currency = pick(['USD', 'USD', 'EUR']);
    const method: OrderMethod = pick(['card', 'online_wallet', 'p2p_app']);
    await commands.execute(
      new CreateOrderCommand({
        orderId,
        accountId,
        environment,
        region: 'EU',
        method,
        amount: cents(80),
        currency,
        customer: `payer-${orderId}@example.com`,
        credentialId,
      }),
    );
    await commands.execute(
      new PayOrderCommand(
        orderId,
        method === 'card'
          ? {
              kind: 'card',
              number: '4242424242424242',
              expiryMonth: 12,
              expiryYear: 2034,
              securityCode: '123',
              name: 'Churn',
            }
          : { kind: 'wallet', account: `churn-${orderId}` },
      ),
    );
  }

  async function step(i: number): Promise<void> {
    const roll = random();
    let kind: string;
    try {
      if (roll < 0.3) {
        kind = 'pay_order';
        await payOrder();
      } else if (roll < 0.55) {
        kind = 'create_payout';
        const reference = `${seedText}-${i}`;
        const create = new CreatePayoutCommand({
          accountId,
          environment,
          amount: cents(20),
          merchantReference: reference,
          delivery: 'link',
          customerEmail: `${reference}@example.com`,
        });
        await commands.execute(create);
        created.push(create.payoutId);
      } else if (roll < 0.7) {
        kind = 'cancel_payout';
        const payoutId = created.length > 0 ? pick(created) : undefined;
        if (payoutId) await commands.execute(new CancelPayoutCommand(accountId, environment, payoutId));
      } else if (roll < 0.85) {
        kind = 'mature';
        for (const currency of ['USD', 'EUR']) {
          await commands.execute(new MatureProceedsCommand(ledgerStreamId(accountId, environment, currency)));
        }
      } else if (roll < 0.95) {
        kind = 'settlement_run';
        await runs.runNow(environment);
      } else {
        kind = 'complete_settlements';
        await runs.completeOpen(environment);
      }
      count(done, kind);
    } catch (error) {
      count(refused, (error as { code?: string }).code ?? (error as Error).name);
    }
  }

  // Four at a time, so this process's own commands race each other as well as the other processes'.
  const steps = Number(stepsText);
  for (let i = 0; i < steps; i += 4) {
    await Promise.all([0, 1, 2, 3].filter((j) => i + j < steps).map((j) => step(i + j)));
  }
  await app.close();
  process.stdout.write(`${JSON.stringify({ done, refused })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
