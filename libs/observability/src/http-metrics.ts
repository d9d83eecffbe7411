import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics';

/** The route label of a request that no route took (a 404, or a method the path does not have). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every answer by its route's template (`/api/payout/:payout_id`), never by its
 * URL, so no id or token becomes a label (docs/design.md#metrics). `elapsedTime` runs from the
 * request's arrival, so an answer sent by an early hook (a refusal) is counted and timed too.
 */
export function instrumentHttp(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
