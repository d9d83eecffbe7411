import type { Environment } from '@payouts/domain';

/**
 * Requests to a route under the `/sandbox` path prefix target the sandbox, all others production
 * (docs/sandbox.md). Read off the route the router matched (its pattern, e.g.
 * `/sandbox/api/payout/:payout_id`), never off the raw request target: the router decodes the
 * path, so a raw target may spell that route another way (`/%73andbox/...`, which createApp
 * refuses as well, or the absolute form `http://host/sandbox/...`), and the environment must be
 * the one of the route that answers.
 */
export function environmentOfRoute(request: { routeOptions: { url: string | undefined } }): Environment {
  const route = request.routeOptions.url ?? '';
  return route === '/sandbox' || route.startsWith('/sandbox/') ? 'sandbox' : 'production';
}
