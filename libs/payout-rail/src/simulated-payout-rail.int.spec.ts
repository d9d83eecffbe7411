import type { Environment, ReceivingDetails } from '@payouts/domain';
import type { Clock } from '@payouts/clock';
import { TestDatabase, testBackends } from '@payouts/testing';
import { RailRequestError, RailTransferRequest } from './payout-rail.port';
import { SimulatedPayoutRail } from './simulated-payout-rail';

const DELAY_MS = 1_000;

/** Time moves only when the test moves it, so "after the delay" needs no waiting. */
class SteppingClock implements Clock {
  private at = Date.parse('2026-03-01T12:00:00.000Z');
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

const bank = (accountNumber: string): ReceivingDetails => ({
  method: 'bank_transfer',
  accountHolder: 'Ana Example',
  routingNumber: '011000015',
  accountNumber,
});

describe.each(testBackends())('the payout rail simulator on $name', (backend) => {
  let database: TestDatabase;
  let clock: SteppingClock;
  let rail: SimulatedPayoutRail;
  let counter = 0;

  beforeAll(async () => {
    database = await backend.open();
    clock = new SteppingClock();
    rail = new SimulatedPayoutRail(database.db, clock, DELAY_MS);
  });
  afterAll(() => database.drop());

  const request = (
    details: ReceivingDetails,
    overrides: Partial<RailTransferRequest> = {},
  ): RailTransferRequest => {
    counter += 1;
    return {
      transferId: `po_${backend.name}_${counter}`,
      environment: 'sandbox' as Environment,
      amount: '10.00',
      currency: 'USD',
      details,
      ...overrides,
    };
  };

  async function rows(transferId: string): Promise<number> {
    const { rows: found } = await database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rail_simulator_transfers WHERE transfer_id = $1',
      [transferId],
    );
    return found[0]!.n;
  }

  it('pays after the delay with a receipt beginning rcpt_, and not before', async () => {
    const sent = request(bank('000123456789'));
    expect(await rail.send(sent)).toEqual({
      transferId: sent.transferId,
      status: 'pending',
      receiptReference: null,
      failureReason: null,
    });
    clock.advance(DELAY_MS - 1);
    expect((await rail.get(sent.transferId))?.status).toBe('pending');
    clock.advance(1);
    const paid = await rail.get(sent.transferId);
    expect(paid).toMatchObject({ status: 'paid', failureReason: null });
    expect(paid?.receiptReference).toMatch(/^rcpt_[0-9a-f]{24}$/);
  });

  it('answers a second send of the same payout with the same transfer: one row, one receipt, never paid twice', async () => {
    const sent = request(bank('000123456789'));
    const first = await rail.send(sent);
    clock.advance(DELAY_MS);
    const paid = await rail.get(sent.transferId);
    const again = await rail.send(sent);
    expect(first.transferId).toBe(sent.transferId);
    expect(again).toEqual(paid);
    expect(await rows(sent.transferId)).toBe(1);
  });

  it('keeps one transfer when the same payout is sent many times at once', async () => {
    const sent = request(bank('000123456789'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => rail.send(sent)));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await rows(sent.transferId)).toBe(1);
    clock.advance(DELAY_MS);
    const receipts = await Promise.all(Array.from({ length: 10 }, () => rail.get(sent.transferId)));
    expect(new Set(receipts.map((r) => r?.receiptReference)).size).toBe(1);
  });

  it('refuses the same transfer id with another amount or environment', async () => {
    const sent = request(bank('000123456789'));
    await rail.send(sent);
    await expect(rail.send({ ...sent, amount: '10.01' })).rejects.toBeInstanceOf(RailRequestError);
    await expect(rail.send({ ...sent, environment: 'production' })).rejects.toBeInstanceOf(RailRequestError);
    await expect(rail.send({ ...sent, amount: '10' })).resolves.toMatchObject({
      transferId: sent.transferId,
    });
  });

  it('refuses a malformed amount', async () => {
    await expect(rail.send(request(bank('000123456789'), { amount: '1e3' }))).rejects.toMatchObject({
      code: 'invalid_amount',
    });
  });

  it.each<[string, ReceivingDetails]>([
    ['an account number ending 0002', bank('000100000002')],
    [
      'a card ending 0002',
      {
        method: 'debit_card',
        cardholderName: 'Ana',
        cardNumber: '4000000000000002',
        expiryMonth: 12,
        expiryYear: 2030,
      },
    ],
    ['a wallet e-mail fail@…', { method: 'wallet', walletHandle: 'fail@example.com' }],
  ])(
    'fails a sandbox transfer to %s after the delay, with a reason and no receipt',
    async (_case, details) => {
      const sent = request(details);
      await rail.send(sent);
      clock.advance(DELAY_MS);
      expect(await rail.get(sent.transferId)).toEqual({
        transferId: sent.transferId,
        status: 'failed',
        receiptReference: null,
        failureReason: 'declined_by_rail',
      });
    },
  );

  it('pays a production transfer whatever the details: test values are the sandbox’s only', async () => {
    const sent = request(bank('000100000002'), { environment: 'production' });
    await rail.send(sent);
    clock.advance(DELAY_MS);
    expect((await rail.get(sent.transferId))?.status).toBe('paid');
  });

  it('holds a transfer to a review value until released, then pays it after the delay', async () => {
    const sent = request({ method: 'wallet', walletHandle: 'review@example.com' });
    await rail.send(sent);
    clock.advance(DELAY_MS);
    expect((await rail.get(sent.transferId))?.status).toBe('held');
    clock.advance(10 * DELAY_MS);
    expect((await rail.get(sent.transferId))?.status).toBe('held');

    expect((await rail.releaseHold(sent.transferId)).status).toBe('pending');
    expect((await rail.releaseHold(sent.transferId)).status).toBe('pending');
    clock.advance(DELAY_MS);
    const paid = await rail.get(sent.transferId);
    expect(paid?.status).toBe('paid');
    expect(paid?.receiptReference).toMatch(/^rcpt_/);
    await expect(rail.cancelHold(sent.transferId)).rejects.toBeInstanceOf(RailRequestError);
  });

  it('fails a held transfer that is cancelled, returning the money; it can never be released after', async () => {
    const sent = request(bank('000100000003'));
    await rail.send(sent);
    clock.advance(DELAY_MS);
    expect(await rail.cancelHold(sent.transferId)).toEqual({
      transferId: sent.transferId,
      status: 'failed',
      receiptReference: null,
      failureReason: 'review_rejected',
    });
    expect((await rail.cancelHold(sent.transferId)).status).toBe('failed');
    await expect(rail.releaseHold(sent.transferId)).rejects.toBeInstanceOf(RailRequestError);
  });

  it('knows nothing of a transfer never sent', async () => {
    expect(await rail.get('po_never')).toBeNull();
    await expect(rail.releaseHold('po_never')).rejects.toBeInstanceOf(RailRequestError);
    await expect(rail.cancelHold('po_never')).rejects.toBeInstanceOf(RailRequestError);
  });

  it('refuses a delay outside 0 to 10 minutes', () => {
    expect(() => new SimulatedPayoutRail(database.db, clock, -1)).toThrow(RangeError);
    expect(() => new SimulatedPayoutRail(database.db, clock, 600_001)).toThrow(RangeError);
  });
});
