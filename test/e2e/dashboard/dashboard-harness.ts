import type { Clock } from '@payouts/clock';
import { DASHBOARD_CLOCK } from '../../../apps/api-gateway/src/dashboard-pages/dashboard-clock';
import { client, merchant, Merchant } from '../api/gateway-harness';
import { startTestingGateway, TestingGateway } from '../api/testing-gateway';

/** A clock the test moves: the dashboard's sessions and lockout read it. */
export class TestClock implements Clock {
  constructor(private time = Date.parse('2030-01-01T09:00:00Z')) {}

  now(): Date {
    return new Date(this.time);
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

export const MINUTE = 60_000;

/** The embedded start with the dashboard on `clock`, and one account (Shop) to sign in to. */
export async function startDashboardGateway(
  clock: TestClock,
  accountName = 'Shop',
): Promise<{ gateway: TestingGateway; shop: Merchant }> {
  const gateway = await startTestingGateway((builder) =>
    builder.overrideProvider(DASHBOARD_CLOCK).useValue(clock),
  );
  const shop = await merchant(client(gateway.url), '0.00', { name: accountName });
  return { gateway, shop };
}
