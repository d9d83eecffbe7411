import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * An app's answer, on the paths of its HTML pages, to a request that no route takes or whose
 * target createApp refuses (request-target.ts in libs/http): its "not found" page, never the API's
 * JSON, sent before any body is read. Sends it and returns true; returns false, having sent
 * nothing, for a path that is not one of its pages.
 */
export type PageNotFound = (request: FastifyRequest, reply: FastifyReply) => boolean;

const registered = new WeakMap<FastifyInstance, PageNotFound[]>();

/**
 * For a module that serves HTML pages, in its onModuleInit (the app has not listened yet): from
 * then on createApp's first hook lets `answer` take its pages' paths.
 */
export function answerNotFoundOnPages(fastify: FastifyInstance, answer: PageNotFound): void {
  registered.set(fastify, [...(registered.get(fastify) ?? []), answer]);
}

/** Whether one of the app's pages answered the request (see PageNotFound). */
export function answeredAsPageNotFound(
  fastify: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  return (registered.get(fastify) ?? []).some((answer) => answer(request, reply));
}
