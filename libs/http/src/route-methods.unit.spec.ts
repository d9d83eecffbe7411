import { RouteMethods } from './route-methods';

describe('RouteMethods', () => {
  const routes = new RouteMethods();
  routes.add('POST', '/api/payout/create');
  routes.add('GET', '/api/payout/:payout_id');
  routes.add('POST', '/api/payout/:payout_id/cancel');
  routes.add(['PUT', 'DELETE'], '/dashboard/payout-webhook');
  routes.add('GET', '/assets/*');

  it.each([
    ['/api/payout/create', ['GET', 'HEAD', 'POST']],
    ['/api/payout/po_1?x=1', ['GET', 'HEAD']],
    ['/api/payout/po_1/cancel', ['POST']],
    ['/dashboard/payout-webhook', ['DELETE', 'PUT']],
    ['/assets/css/page.css', ['GET', 'HEAD']],
    ['/api/payout/', []],
    ['/api/payout/po_1/cancel/more', []],
    ['/api/nothing', []],
  ])('knows the methods %s takes: %j', (url, methods) => {
    expect(routes.allowedOn(url)).toEqual(methods);
  });

  it('refuses a method a known path does not take with 405 and Allow, and leaves unknown paths alone', () => {
    const refusal = routes.refusal('GET', '/dashboard/payout-webhook');
    expect([refusal?.status, refusal?.code, refusal?.headers]).toEqual([
      405,
      'method_not_allowed',
      { Allow: 'DELETE, PUT' },
    ]);
    expect(routes.refusal('PUT', '/dashboard/payout-webhook')).toBeUndefined();
    expect(routes.refusal('GET', '/nowhere')).toBeUndefined();
  });
});
