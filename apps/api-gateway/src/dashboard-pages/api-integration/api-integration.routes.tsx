import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { ApiError } from '@payouts/http';
import { APP_CONFIG, CLOCK, SQL_CLIENT } from '@payouts/platform';
import { formField, noticeFor, queryInteger, sendPage } from '@payouts/web';
import type { EventLogEntry } from '@payouts/webhooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PayoutWebhookSettings } from '../../admin/payout-webhook.settings';
import { DashboardPageContext, DashboardRouteSet, SignedInPage } from '../dashboard-page-context';
import { ApiIntegrationPage, PageMessage, ShownSecret } from './api-integration-page';
import {
  API_INTEGRATION_PATHS,
  EVENT_ID_PATTERN,
  EVENT_NOTICES,
  EVENTS_PER_PAGE,
  eventPath,
  MAX_EVENT_OFFSET,
  PAGE_NOTICES,
  URL_FIELD,
} from './api-integration-paths';
import { WebhookEventPage } from './webhook-event-page';

type EventRequest = FastifyRequest<{ Params: { event_id: string } }>;

const NO_SUCH_EVENT: PageMessage = {
  kind: 'error',
  text: 'There is no such event in this environment’s delivery log: nothing was sent.',
};

/**
 * Settings → API integration (docs/dashboard.md#api-integration): the payout webhook of the
 * session's environment through PayoutWebhookSettings, the same rules and refusals as
 * `/dashboard/payout-webhook` of the JSON API. Secrets are shown in the answer to the form that
 * made them (200, no-store), never in a URL.
 */
@Injectable()
export class ApiIntegrationRoutes implements DashboardRouteSet {
  private readonly settings: PayoutWebhookSettings;

  constructor(
    private readonly context: DashboardPageContext,
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.settings = new PayoutWebhookSettings(db, config, clock);
  }

  register(scope: FastifyInstance): void {
    const paths = API_INTEGRATION_PATHS;
    scope.get(paths.page, (request, reply) => this.show(request, reply));
    scope.post(paths.saveUrl, (request, reply) => this.saveUrl(request, reply));
    scope.post(paths.sendTest, (request, reply) => this.sendTest(request, reply));
    scope.post(paths.stopSending, (request, reply) => this.stopSending(request, reply));
    scope.post(paths.rotateSecret, (request, reply) => this.rotateSecret(request, reply));
    scope.post(paths.enable, (request, reply) => this.enable(request, reply));
    scope.get(paths.event, (request: EventRequest, reply) => this.showEvent(request, reply));
    scope.post(paths.resend, (request: EventRequest, reply) => this.resend(request, reply));
  }

  private async show(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const query = request.query as Record<string, unknown>;
    const notice = noticeFor(query, PAGE_NOTICES);
    return this.sendMain(reply, page, 200, {
      offset: queryInteger(query.offset, 0, MAX_EVENT_OFFSET),
      message: notice ? { kind: 'success', text: notice } : null,
    });
  }

  private async saveUrl(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const url = formField(request.body, URL_FIELD) ?? '';
    const { accountId, environment } = page.session;
    try {
      const { secret } = await this.settings.save(accountId, environment, url);
      return this.sendMain(reply, page, 200, {
        message: { kind: 'success', text: 'Webhook URL saved. Payout webhooks are sent to it from now on.' },
        shownSecret: { secret, previousSecretExpiresAt: null },
      });
    } catch (error) {
      const refusal = refusalOf(error);
      return this.sendMain(reply, page, refusal.status, {
        message: { kind: 'error', text: 'The webhook URL was not saved: nothing changed.' },
        urlValue: url,
        urlError: sentence(refusal.message),
      });
    }
  }

  private async sendTest(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    try {
      await this.settings.sendTest(page.session.accountId, page.session.environment);
    } catch (error) {
      return this.refused(reply, page, error);
    }
    return reply.redirect(`${API_INTEGRATION_PATHS.page}?notice=test_sent`, 303);
  }

  private async stopSending(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const { removed } = await this.settings.remove(page.session.accountId, page.session.environment);
    return reply.redirect(`${API_INTEGRATION_PATHS.page}?notice=${removed ? 'stopped' : 'not_set'}`, 303);
  }

  private async rotateSecret(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    let shownSecret: ShownSecret;
    try {
      const { endpoint, secret } = await this.settings.rotateSecret(
        page.session.accountId,
        page.session.environment,
      );
      shownSecret = { secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt };
    } catch (error) {
      return this.refused(reply, page, error);
    }
    return this.sendMain(reply, page, 200, {
      message: { kind: 'success', text: 'Signing secret rotated. The URL stays the same.' },
      shownSecret,
    });
  }

  private async enable(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    let wasDisabled: boolean;
    try {
      ({ wasDisabled } = await this.settings.enable(page.session.accountId, page.session.environment));
    } catch (error) {
      return this.refused(reply, page, error);
    }
    return reply.redirect(
      `${API_INTEGRATION_PATHS.page}?notice=${wasDisabled ? 'enabled' : 'not_disabled'}`,
      303,
    );
  }

  private async showEvent(request: EventRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const event = await this.eventOf(page, request.params.event_id);
    if (!event) throw Object.assign(new Error('no such event'), { statusCode: 404 });
    const notice = noticeFor(request.query, EVENT_NOTICES);
    const message: PageMessage | null = notice ? { kind: 'success', text: notice } : null;
    return sendPage(reply, 200, <WebhookEventPage frame={page.frame} event={event} message={message} />);
  }

  private async resend(request: EventRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const event = await this.eventOf(page, request.params.event_id);
    if (!event) return this.sendMain(reply, page, 404, { message: NO_SUCH_EVENT });
    try {
      const queued = await this.settings.resend(page.session.accountId, event.eventId);
      if (!queued) return this.sendMain(reply, page, 404, { message: NO_SUCH_EVENT });
    } catch (error) {
      const refusal = refusalOf(error);
      const message: PageMessage = { kind: 'error', text: refusalWords(refusal) };
      return sendPage(
        reply,
        refusal.status,
        <WebhookEventPage frame={page.frame} event={event} message={message} />,
      );
    }
    return reply.redirect(`${eventPath(event.eventId)}?notice=resent`, 303);
  }

  /** The account's event in the session's environment (the other environment's is not shown). */
  private async eventOf(page: SignedInPage, eventId: string): Promise<EventLogEntry | null> {
    if (!EVENT_ID_PATTERN.test(eventId)) return null;
    const event = await this.settings.event(page.session.accountId, eventId);
    return event && event.environment === page.session.environment ? event : null;
  }

  /** A refused action: the page again with what was refused, under the API's status. */
  private refused(reply: FastifyReply, page: SignedInPage, error: unknown) {
    const refusal = refusalOf(error);
    return this.sendMain(reply, page, refusal.status, {
      message: { kind: 'error', text: refusalWords(refusal) },
    });
  }

  private async sendMain(
    reply: FastifyReply,
    page: SignedInPage,
    status: number,
    extras: {
      offset?: number;
      message?: PageMessage | null;
      shownSecret?: ShownSecret;
      urlValue?: string;
      urlError?: string;
    },
  ) {
    const { accountId, environment } = page.session;
    const [endpoint, log] = await Promise.all([
      this.settings.get(accountId, environment),
      this.settings.list(accountId, environment, { limit: EVENTS_PER_PAGE, offset: extras.offset ?? 0 }),
    ]);
    return sendPage(
      reply,
      status,
      <ApiIntegrationPage
        frame={page.frame}
        endpoint={endpoint}
        log={log}
        message={extras.message}
        shownSecret={extras.shownSecret}
        urlValue={extras.urlValue}
        urlError={extras.urlError}
      />,
    );
  }
}

/** PayoutWebhookSettings' refusals are ApiErrors; anything else is a failure (the 500 page). */
function refusalOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  throw error;
}

/** A refusal in the page's words, by the API's code (the rule itself is in PayoutWebhookSettings). */
function refusalWords(refusal: ApiError): string {
  switch (refusal.code) {
    case 'no_webhook_endpoint':
      return 'No webhook URL is set for this environment: nothing was done. Save a URL first.';
    case 'resend_in_progress':
      return 'A resend of this event is still waiting to be sent: nothing was added. Try again once it has been sent.';
    default:
      return sentence(refusal.message);
  }
}

/** The API's message as a sentence on the page: a capital first letter and a full stop. */
function sentence(message: string): string {
  const capitalised = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
