import { eventually } from '../../../libs/webhooks/src/testing/receiver';
import { recipientClient } from '../recipient/recipient-client';
import type { EsdbService } from './esdb-service';

/** The merchant's site, where a redirect payout's recipient comes back to. */
export const RETURN_ORIGIN = 'https://shop.example.com';

/** A payout handed to the recipient's browser by redirect: no e-mailed code to wait for. */
export const redirectBody = (reference: string, amount = '10.00') => ({
  amount,
  merchant_reference: reference,
  delivery: 'redirect',
  customer_id: `cus_${reference}`,
  return_url: `${RETURN_ORIGIN}/back`,
});

/** The recipient opens the handoff, chooses a wallet and confirms; the worker then sends it. */
export async function acceptOnHandoff(gatewayUrl: string, payoutUrl: string): Promise<void> {
  const { open, post } = recipientClient(() => gatewayUrl);
  const { cookie, csrf } = await open(payoutUrl);
  const details = { csrf_token: csrf, method: 'wallet', wallet_handle: 'ana@example.com' };
  expect((await post('/sandbox/recipient/details', cookie, details)).status).toBe(303);
  expect((await post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf })).status).toBe(303);
}

/**
 * Waits until the projector's chain keeper has linked every event in EventStoreDB, so that
 * `audit verify` covers them all rather than reporting a tail not yet chained.
 */
export async function chainCaughtUp(service: EsdbService): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await service.db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_chain');
      return rows[0]!.n === service.standIn.eventCount() ? true : undefined;
    },
    20_000,
    'the chain keeper linking every event',
  );
}
