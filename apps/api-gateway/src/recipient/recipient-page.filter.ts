import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfPath } from '../auth/request-environment';
import { setPageHeaders } from './page-headers';
import { RecipientPageError } from './recipient-errors';
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
    setPageHeaders(reply, { https: request.protocol === 'https' });
    for (const [name, value] of Object.entries(known.headers)) reply.header(name, value);
    void reply
      .status(known.status)
      .type('text/html; charset=utf-8')
      .send(
        problemPage(
          { environment: environmentOfPath(request.url), title: known.title },
          { message: known.message },
        ),
      );
  }
}
