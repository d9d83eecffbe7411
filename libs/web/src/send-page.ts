import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderPage } from './render-page';

/** Answers with a rendered page (see renderPage) and its status. */
export function sendPage<Props>(reply: FastifyReply, status: number, page: VNode<Props>): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(renderPage(page));
}
