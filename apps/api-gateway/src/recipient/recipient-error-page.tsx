import { Logger } from '@nestjs/common';
import { formExpired, linkNotFound, RecipientPageError } from '@payouts/claims';
import type { Environment } from '@payouts/domain';
import type { PageNotFound } from '@payouts/platform';
import { applyPageHeaders, isCsrfRefusal, sendPage } from '@payouts/web';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfRoute } from '../auth/request-environment';
import { ProblemPage } from './views/pages';

const logger = new Logger('RecipientPages');

/**
 * The recipient page scope's answer to what a route raised: refusals are pages too, with a clear
 * message and the right status, never JSON. A refused CSRF token is the "form expired" page.
 */
export function recipientErrorPage(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  let problem: RecipientPageError;
  if (error instanceof RecipientPageError) problem = error;
  else if (isCsrfRefusal(error)) problem = formExpired();
  else {
    logger.error(`recipient page failed: ${error instanceof Error ? error.message : String(error)}`);
    problem = new RecipientPageError(
      500,
      'Something went wrong',
      'Something went wrong on our side. Please try again in a few minutes.',
    );
  }
  sendProblemPage(reply, problem, environmentOfRoute(request));
}

/** The recipient pages' paths, in either environment: claim links, handoffs, the pages and their assets. */
const RECIPIENT_PAGE_PATH = /^(?:\/sandbox)?\/(?:(?:claim|handoff)(?:[/?]|$)|recipient)/;

/**
 * A recipient page path that no route takes (`/claim/`, `/recipient/nothing`) or whose target is
 * refused (`/claim/%70o_…`, a ".." segment): the page of a link that is not valid, for a GET or a
 * form post alike (createApp's hook, page-not-found.ts), with the pages' headers. No environment
 * is read off such a path: no sandbox banner.
 */
export function recipientPageNotFound(https: boolean): PageNotFound {
  return (request, reply) => {
    if (!RECIPIENT_PAGE_PATH.test(request.url)) return false;
    applyPageHeaders(request, reply, https);
    sendProblemPage(reply, linkNotFound(), 'production');
    return true;
  };
}

function sendProblemPage(reply: FastifyReply, problem: RecipientPageError, environment: Environment): void {
  for (const [name, value] of Object.entries(problem.headers)) void reply.header(name, value);
  const page = <ProblemPage frame={{ environment, title: problem.title }} message={problem.message} />;
  void sendPage(reply, problem.status, page);
}
