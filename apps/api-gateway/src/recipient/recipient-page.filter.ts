import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { linkNotFound, RecipientPageError } from '@payouts/claims';
import type { Environment } from '@payouts/domain';
import type { PageNotFound } from '@payouts/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfRoute } from '../auth/request-environment';
import { setPageHeaders } from './page-headers';
import { problemPage } from './views/pages';

/** Refusals on the recipient's pages are pages too: a clear message and the right status, never JSON. */
@Catch()
export class RecipientPageFilter implements ExceptionFilter {
  private readonly logger = new Logger('RecipientPages');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const known =
      exception instanceof RecipientPageError
        ? exception
        : new RecipientPageError(
            500,
            'Something went wrong',
            'Something went wrong on our side. Please try again in a few minutes.',
          );
    if (!(exception instanceof RecipientPageError)) {
      this.logger.error(
        `recipient page failed: ${exception instanceof Error ? exception.message : String(exception)}`,
      );
    }
    sendProblemPage(request, reply, known, environmentOfRoute(request));
  }
}

/** The recipient pages' paths, in either environment: claim links, handoffs, the pages and their assets. */
const RECIPIENT_PAGE_PATH = /^(?:\/sandbox)?\/(?:(?:claim|handoff)(?:[/?]|$)|recipient)/;

/**
 * A recipient page path that no route takes (`/claim/`, `/recipient/nothing`) or whose target is
 * refused (`/claim/%70o_…`, a ".." segment): the page of a link that is not valid, for a GET or a
 * form post alike (createApp's hook, page-not-found.ts). No environment is read off such a path:
 * no sandbox banner.
 */
export const recipientPageNotFound: PageNotFound = (request, reply) => {
  if (!RECIPIENT_PAGE_PATH.test(request.url)) return false;
  sendProblemPage(request, reply, linkNotFound(), 'production');
  return true;
};

function sendProblemPage(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: RecipientPageError,
  environment: Environment,
): void {
  setPageHeaders(reply, { https: request.protocol === 'https' });
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  void reply
    .status(problem.status)
    .type('text/html; charset=utf-8')
    .send(problemPage({ environment, title: problem.title }, { message: problem.message }));
}
