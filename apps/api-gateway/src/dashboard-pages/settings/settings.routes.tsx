import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { isKnownTimeZone } from '@payouts/accounts';
import type { AccountsRepository, IssuedCredential } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { DomainError } from '@payouts/domain';
import { ApiError, toApiError } from '@payouts/http';
import { APP_CONFIG, SQL_CLIENT } from '@payouts/platform';
import { FundsQueries, PricingQueries } from '@payouts/settlements';
import { checkoutWebhookAttempts } from '@payouts/webhooks';
import { formField, noticeFor, queryInteger, sendPage } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AccountSettings, checkedBody } from '../../admin/account-settings';
import { IssueCredentialDto, PayoutsEnabledDto, ReturnUrlOriginsDto } from '../../admin/admin.dto';
import { RetainedTargetDto } from '../../admin/funds.dto';
import { PayoutWebhookEndpointDto } from '../../admin/payout-webhook.dto';
import { ACCOUNTS } from '../../gateway.tokens';
import { DashboardPageContext, DashboardRouteSet, SignedInPage } from '../dashboard-page-context';
import { sendDashboardTestWebhook } from './checkout-test-webhook';
import {
  CREDENTIALS_PAGE,
  SETTINGS_PATHS,
  SettingsForm,
  settingsNotices,
  SettingsPage,
  SettingsPageProps,
  SettingsRefusal,
} from './settings-page';
import { ATTEMPTS_PAGE } from './settings-page';

type Notice = keyof ReturnType<typeof settingsNotices>;

/** What the page shows besides its data: a refusal with what was typed, or a credential just issued. */
interface PageState {
  status?: number;
  refusal?: SettingsRefusal;
  values?: Record<string, string | undefined>;
  issued?: IssuedCredential;
}

/**
 * The Settings page (`GET /dashboard/settings`) and its forms, one POST route each, over the same
 * rules and refusals as the JSON routes (AccountSettings, the DTOs through checkedBody): a change
 * is answered with 303 back to the page and a notice, a refusal with the page again, the API's
 * status and its message at the field. Everything per environment acts on the session's.
 */
@Injectable()
export class SettingsRoutes implements DashboardRouteSet {
  private readonly settings: AccountSettings;

  constructor(
    private readonly context: DashboardPageContext,
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    private readonly funds: FundsQueries,
    private readonly pricing: PricingQueries,
  ) {
    this.settings = new AccountSettings(accounts, commands, config);
  }

  register(scope: FastifyInstance): void {
    scope.get(SETTINGS_PATHS.page, async (request, reply) => {
      const page = await this.context.signedIn(request, reply);
      if (!page) return reply;
      const notice = noticeFor(request.query, settingsNotices(page.session.environment));
      return this.render(reply, page, request.query, { notice });
    });

    this.change(scope, SETTINGS_PATHS.payouts, 'payouts', async (page, body) => {
      const raw = formField(body, 'enabled');
      // The page sends "true" or "false"; anything else goes to the DTO as sent, to be refused there.
      const enabled = raw === 'true' ? true : raw === 'false' ? false : raw;
      const checked = await checkedBody(PayoutsEnabledDto, {
        environment: page.session.environment,
        enabled,
      });
      await this.settings.setPayoutsEnabled(page.session.accountId, checked);
      return checked.enabled ? 'payouts_on' : 'payouts_off';
    });

    this.change(scope, SETTINGS_PATHS.returnUrlOrigins, 'returnUrlOrigins', async (page, body) => {
      const origins = (formField(body, 'origins') ?? '')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
      const checked = await checkedBody(ReturnUrlOriginsDto, {
        environment: page.session.environment,
        origins,
      });
      await this.settings.setReturnUrlOrigins(page.session.accountId, checked);
      return 'origins_saved';
    });

    this.change(scope, SETTINGS_PATHS.retainedTarget, 'retainedTarget', async (page, body) => {
      const checked = await checkedBody(RetainedTargetDto, {
        environment: page.session.environment,
        amount: formField(body, 'amount')?.trim(),
        currency: formField(body, 'currency'),
      });
      await this.settings.setRetainedTarget(page.session.accountId, checked);
      return 'retained_target_saved';
    });

    this.change(scope, SETTINGS_PATHS.timeZone, 'timeZone', async (page, body) => {
      const timeZone = formField(body, 'time_zone');
      // The accounts library's own list: the repository refuses any other zone.
      if (!isKnownTimeZone(timeZone)) {
        throw new ApiError(400, 'invalid_request', 'choose a time zone from the list', 'time_zone');
      }
      await this.accounts.setTimeZone(page.session.accountId, timeZone);
      return 'time_zone_saved';
    });

    this.change(scope, SETTINGS_PATHS.revokeCredential, 'revokeCredential', async (page, body) => {
      await this.settings.revokeCredential(page.session.accountId, formField(body, 'credential_id') ?? '');
      return 'credential_revoked';
    });

    this.change(scope, SETTINGS_PATHS.checkoutWebhook, 'checkoutWebhook', async (page, body) => {
      const checked = await checkedBody(PayoutWebhookEndpointDto, {
        environment: page.session.environment,
        url: formField(body, 'url')?.trim(),
      });
      await this.settings.setCheckoutWebhookUrl(page.session.accountId, checked);
      return 'webhook_saved';
    });

    this.change(scope, SETTINGS_PATHS.testWebhook, 'testWebhook', async (page, body) => {
      const { accountId, environment } = page.session;
      const settings = await this.accounts.environmentSettings(accountId, environment);
      await sendDashboardTestWebhook(this.accounts, this.config, {
        accountId,
        environment,
        credentialId: formField(body, 'signing_credential_id'),
        webhookUrl: settings?.checkoutWebhookUrl ?? null,
      });
      return 'test_webhook_delivered';
    });

    // Issuing answers with the page itself (200): the token and secret are shown in this answer
    // only, never put in a URL.
    scope.post(SETTINGS_PATHS.issueCredential, async (request, reply) => {
      const page = await this.context.signedIn(request, reply);
      if (!page) return reply;
      const kind = formField(request.body, 'kind');
      const scopes = [
        ...(formField(request.body, 'scope_payouts_read') === 'on' ? ['payouts:read'] : []),
        ...(formField(request.body, 'scope_payouts_write') === 'on' ? ['payouts:write'] : []),
      ];
      try {
        const checked = await checkedBody(IssueCredentialDto, {
          kind,
          environment: page.session.environment,
          // No box ticked on a checkout credential is no scopes at all; on a payout one, an empty list.
          ...(kind === 'checkout' && scopes.length === 0 ? {} : { scopes }),
        });
        const issued = await this.settings.issueCredential(page.session.accountId, checked);
        return await this.render(reply, page, {}, { issued });
      } catch (error) {
        return this.refused(reply, page, 'issueCredential', error, request.body);
      }
    });
  }

  /**
   * A POST route changing one setting: `act` returns the notice to show after the 303 back to
   * the page; a refusal it throws shows the page again with it.
   */
  private change(
    scope: FastifyInstance,
    path: string,
    form: SettingsForm,
    act: (page: SignedInPage, body: unknown) => Promise<Notice>,
  ): void {
    scope.post(path, async (request: FastifyRequest, reply: FastifyReply) => {
      const page = await this.context.signedIn(request, reply);
      if (!page) return reply;
      try {
        const notice = await act(page, request.body);
        return reply.redirect(`${SETTINGS_PATHS.page}?notice=${notice}`, 303);
      } catch (error) {
        return this.refused(reply, page, form, error, request.body);
      }
    });
  }

  /** The page again with the refusal at its form (the API's status); anything else is not a refusal. */
  private refused(
    reply: FastifyReply,
    page: SignedInPage,
    form: SettingsForm,
    error: unknown,
    body: unknown,
  ) {
    if (!(error instanceof ApiError) && !(error instanceof DomainError)) throw error;
    const refusal = toApiError(error);
    const values: Record<string, string | undefined> = {};
    for (const name of [
      'origins',
      'amount',
      'currency',
      'time_zone',
      'kind',
      'scope_payouts_read',
      'scope_payouts_write',
      'url',
      'signing_credential_id',
    ]) {
      values[name] = formField(body, name);
    }
    return this.render(
      reply,
      page,
      {},
      {
        status: refusal.status,
        refusal: { form, message: refusal.message, param: refusal.param },
        values,
      },
    );
  }

  private async render(
    reply: FastifyReply,
    page: SignedInPage,
    query: unknown,
    state: PageState & { notice?: string | null },
  ) {
    const { accountId, environment } = page.session;
    const params = (query ?? {}) as Record<string, unknown>;
    const credentialsOffset = queryInteger(params.credentials_offset, 0);
    const logOffset = queryInteger(params.log_offset, 0);
    const settings = await this.accounts.environmentSettings(accountId, environment);
    // The session outlived its account: nothing to show.
    if (!settings) return reply.callNotFound();
    const [retainedTargets, pricing, credentials, attempts] = await Promise.all([
      this.funds.retainedTargets(accountId, environment, settings.region),
      this.pricing.pricingOf(accountId, environment),
      this.accounts.listCredentials(accountId),
      checkoutWebhookAttempts(this.db, accountId, environment, { limit: ATTEMPTS_PAGE, offset: logOffset }),
    ]);
    // Newest first; the other environment's are on its own page.
    const here = credentials.filter((c) => c.environment === environment).reverse();
    const props: SettingsPageProps = {
      frame: page.frame,
      environment,
      settings,
      retainedTargets,
      pricing,
      credentials: {
        total: here.length,
        offset: credentialsOffset,
        rows: here.slice(credentialsOffset, credentialsOffset + CREDENTIALS_PAGE),
      },
      signingCredentials: here.filter((c) => c.kind === 'checkout' && c.revokedAt === null),
      attempts: { total: attempts.total, offset: logOffset, limit: ATTEMPTS_PAGE, rows: attempts.data },
      query: {
        credentials_offset: credentialsOffset > 0 ? String(credentialsOffset) : undefined,
        log_offset: logOffset > 0 ? String(logOffset) : undefined,
      },
      notice: state.notice ?? null,
      refusal: state.refusal ?? null,
      values: state.values,
      issued: state.issued ?? null,
    };
    return sendPage(reply, state.status ?? 200, <SettingsPage {...props} />);
  }
}
