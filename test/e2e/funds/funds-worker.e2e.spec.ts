import { CommandBus } from '@nestjs/cqrs';
import { currentSettlementRun, ledgerStreamId } from '@payouts/domain';
import { dailySettlementId, manualSettlementId, StartSettlementCommand } from '@payouts/settlements';
import { createServerDatabase, testBackends } from '@payouts/testing';
import { merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startWorkerGateway, Storage, WorkerGateway } from '../worker/worker-harness';
import { eventually, ledgerEventsOf, ledgerOf, payingShop } from './funds-harness';

const operator = { token: OPERATOR_TOKEN };
const DAY_S = 24 * 3600;

describe.each(testBackends().map((b) => b.name))(
  'the worker’s funds flow on the sandbox clock, on %s',
  (backend) => {
    let gateway: WorkerGateway;
    let drop: () => Promise<void> = async () => undefined;

    beforeAll(async () => {
      let storage: Storage = { dataDir: ':memory:' };
      if (backend === 'postgres') {
        const server = await createServerDatabase();
        storage = { databaseUrl: server.url };
        drop = server.drop;
      }
      gateway = await startWorkerGateway(storage);
    });
    afterAll(async () => {
      await gateway.close();
      await drop();
    });

    const advance = async (seconds: number): Promise<Date> => {
      const answer = await gateway.call('POST', '/operator/sandbox/clock', {
        ...operator,
        body: { advance_seconds: seconds },
      });
      expect(answer.status).toBe(200);
      return new Date(answer.body.sandbox_now as string);
    };

    it('matures proceeds at the first poll after the clearing day, and settles every ledger fed by checkout once at the day’s run', async () => {
      const { shop, pay } = await payingShop(gateway.call, gateway.url);
      await pay('/sandbox/card', 100);
      const retained = await gateway.call('PUT', '/dashboard/retained-target', {
        token: shop.adminToken,
        body: { environment: 'sandbox', amount: '10.00' },
      });
      expect(retained.status).toBe(200);
      // A prefunded payout balance (operator credits only): the nightly run leaves it alone.
      const prefunded = await merchant(gateway.call, '60.00');
      // Not due yet: a few polls change nothing.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await ledgerOf(gateway.store, shop.accountId)).pending.toFixed(2)).toBe('96.80');

      // Two days and a minute: the card payment clears, and the sandbox passes SETTLEMENT_HOUR_UTC (0).
      const sandboxNow = await advance(2 * DAY_S + 60);
      const { day } = currentSettlementRun(sandboxNow, 0);
      const events = await eventually(async () => {
        const all = await ledgerEventsOf(gateway.store, shop.accountId);
        return all.some((e) => e.type === 'SettlementPaid') ? all : undefined;
      });
      expect(events.find((e) => e.type === 'PaymentProceedsMatured')?.data).toMatchObject({ net: '96.80' });
      const started = events.find((e) => e.type === 'SettlementStarted');
      expect(started?.data).toMatchObject({
        settlementId: dailySettlementId(ledgerStreamId(shop.accountId, 'sandbox'), day),
        amount: '86.80',
        retainedTarget: '10.00',
        trigger: 'daily',
      });
      const ledger = await ledgerOf(gateway.store, shop.accountId);
      expect([ledger.available.toFixed(2), ledger.settlementsPaid.toFixed(2)]).toEqual(['10.00', '86.80']);
      const untouched = await ledgerOf(gateway.store, prefunded.accountId);
      expect([untouched.available.toFixed(2), untouched.settlementsPaid.toFixed(2)]).toEqual([
        '60.00',
        '0.00',
      ]);

      // The day's run again (a second worker, or this one after losing its record): the same ids,
      // so the ledger is not settled a second time that day.
      await gateway.call('POST', `/operator/accounts/${shop.accountId}/funds`, {
        ...operator,
        body: { environment: 'sandbox', amount: '30.00' },
      });
      await gateway.db.query('DELETE FROM settlement_runs WHERE environment = $1 AND day = $2', [
        'sandbox',
        day,
      ]);
      await eventually(async () => {
        const { rows } = await gateway.db.query(
          'SELECT 1 FROM settlement_runs WHERE environment = $1 AND day = $2',
          ['sandbox', day],
        );
        return rows.length > 0 ? true : undefined;
      });
      const after = await ledgerEventsOf(gateway.store, shop.accountId);
      expect(after.filter((e) => e.type === 'SettlementStarted')).toHaveLength(1);
      expect((await ledgerOf(gateway.store, shop.accountId)).available.toFixed(2)).toBe('40.00');

      // The next day's run takes what is there then.
      await advance(DAY_S);
      await eventually(async () => {
        const all = await ledgerEventsOf(gateway.store, shop.accountId);
        return all.filter((e) => e.type === 'SettlementPaid').length === 2 ? all : undefined;
      });
      expect((await ledgerOf(gateway.store, shop.accountId)).available.toFixed(2)).toBe('10.00');
    });

    it('pays a settlement a crash left started at the next poll', async () => {
      const shop = await merchant(gateway.call, '0.00');
      const ledger = ledgerStreamId(shop.accountId, 'sandbox');
      // What a crash between StartSettlement and the rail leaves: the ledger's hold and the open job.
      await gateway.call('POST', `/operator/accounts/${shop.accountId}/funds`, {
        ...operator,
        body: { environment: 'sandbox', amount: '8.00' },
      });
      const id = manualSettlementId();
      await gateway.app.get(CommandBus).execute(new StartSettlementCommand(ledger, id, 'manual'));
      await eventually(async () => {
        const state = await ledgerOf(gateway.store, shop.accountId);
        return state.closedSettlements.get(id) === 'paid' ? state : undefined;
      });
    });
  },
);
