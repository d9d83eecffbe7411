import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AccountsRepository } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { DomainError } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { ApiError } from '@payouts/http';
import { IdempotentRequests } from '@payouts/idempotency';
import type { IdempotentResult } from '@payouts/idempotency';
import { IssueClaimLinkCommand, PayoutQueries, SealedAnswerUrls } from '@payouts/payouts';
import { APP_CONFIG, EVENT_STORE } from '@payouts/platform';
import { WritePath } from '@payouts/write-side';
import { formField, hrefWith, noticeFor, sendPage } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNTS } from '../../gateway.tokens';
import { cancelPayoutIdempotently } from '../../payouts/cancel-payout/payout-cancellation';
import { issueClaimLinkIdempotently } from '../../payouts/claim-link/claim-link-issue';
import {
  createPayoutIdempotently,
  PayoutCreationServices,
} from '../../payouts/create-payout/payout-creation';
import { accountPreconditionRefusal } from '../../payouts/payout-preconditions';
import { PAYOUT_ID } from '../../payouts/payout-id';
import { parseListQuery } from '../../payouts/reads/list-query';
import { DashboardPageContext, DashboardRouteSet, SignedInPage } from '../dashboard-page-context';
import { payoutTimeline } from './payout-timeline';
import { IDEMPOTENCY_FIELD, newFormKey, SEND_PAYOUTS_PATHS } from './send-payouts-paths';
import { afterEarlierSend, isRefusal, keyReusable, PageRefusal, refusalOf } from './send-payouts-refusals';
import {
  NewPayoutPage,
  PAYOUT_FORM_FIELDS,
  PayoutAllowance,
  PayoutFormValues,
} from './views/new-payout-page';
import { PayoutLink, PayoutNotFoundPage, PayoutPage } from './views/payout-page';
import { PayoutFilterValues, PayoutsListPage } from './views/payouts-list-page';

/** The list's query parameters: List Payouts' filters and page. */
const LIST_PARAMETERS = ['merchant_reference', 'customer_id', 'status', 'since', 'until', 'limit', 'offset'];

/** Outcomes shown on the payout page after a redirect (`?notice=`). */
const NOTICES = {
  payout_created:
    'Payout created: its amount and fee are reserved. Copy the claim link below and send it to the recipient.',
  link_rotated: 'New claim link issued: the old link, its codes and its sessions stopped working.',
  payout_cancelled: 'Payout cancelled: its amount and fee returned to the balance.',
  payout_ended: 'The payout had already ended (expired or failed): nothing was changed.',
} as const;
type NoticeCode = keyof typeof NOTICES;

type PayoutParams = { Params: { payout_id: string } };

/** Whose payout a page's command acts on: the session's account and environment. */
type PayoutOwner = { accountId: string; environment: SignedInPage['session']['environment'] };

/**
 * Send payouts (docs/dashboard.md#send-payouts): the payouts list with List Payouts' filters, the
 * form that creates a link payout, and a payout's page with its claim link, rotation, cancel and
 * history. Each reads the same queries and sends the same commands, through the same functions and
 * idempotency, as the JSON API (apps/api-gateway/src/payouts), with the session's account and
 * environment.
 */
@Injectable()
export class SendPayoutsRoutes implements DashboardRouteSet {
  /** What the API's payout routes use: the shared command functions take the same. */
  private readonly creation: PayoutCreationServices;
  private readonly actions: {
    commands: CommandBus;
    idempotent: IdempotentRequests;
    answerUrls: SealedAnswerUrls;
  };

  constructor(
    private readonly context: DashboardPageContext,
    private readonly commands: CommandBus,
    private readonly queries: PayoutQueries,
    idempotent: IdempotentRequests,
    answerUrls: SealedAnswerUrls,
    writes: WritePath,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
  ) {
    this.creation = { commands, queries, idempotent, writes, config };
    this.actions = { commands, idempotent, answerUrls };
  }

  register(scope: FastifyInstance): void {
    scope.get(SEND_PAYOUTS_PATHS.list, (request, reply) => this.list(request, reply));
    scope.get(SEND_PAYOUTS_PATHS.create, (request, reply) => this.newPayout(request, reply));
    scope.post(SEND_PAYOUTS_PATHS.create, (request, reply) => this.create(request, reply));
    scope.get<PayoutParams>(SEND_PAYOUTS_PATHS.payout(':payout_id'), (request, reply) =>
      this.payout(request, reply),
    );
    scope.post<PayoutParams>(SEND_PAYOUTS_PATHS.cancel(':payout_id'), (request, reply) =>
      this.cancel(request, reply),
    );
    scope.post<PayoutParams>(SEND_PAYOUTS_PATHS.rotateLink(':payout_id'), (request, reply) =>
      this.rotateLink(request, reply),
    );
  }

  private async list(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const query = (request.query ?? {}) as Record<string, unknown>;
    // An empty field of the filter form is no filter; the rest goes to List Payouts' own parsing.
    const given: Record<string, unknown> = {};
    for (const name of LIST_PARAMETERS) {
      const value = query[name];
      if (value !== undefined && value !== '') given[name] = value;
    }
    const text = (name: string) => (typeof given[name] === 'string' ? (given[name] as string) : undefined);
    const filters: PayoutFilterValues = {
      merchant_reference: text('merchant_reference'),
      customer_id: text('customer_id'),
      status: text('status'),
      since: text('since'),
      until: text('until'),
    };
    const kept = { ...filters, limit: text('limit') };
    const hrefFor = (offset: number) =>
      hrefWith(SEND_PAYOUTS_PATHS.list, kept, { offset: offset || undefined });
    let parsed: ReturnType<typeof parseListQuery>;
    try {
      parsed = parseListQuery(given);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const refused = { message: error.message, ...(error.param ? { param: error.param } : {}) };
      return sendPage(
        reply,
        400,
        <PayoutsListPage frame={page.frame} filters={filters} error={refused} hrefFor={hrefFor} />,
      );
    }
    const { accountId, environment } = page.session;
    const found = await this.queries.list(accountId, environment, parsed);
    return sendPage(
      reply,
      200,
      <PayoutsListPage frame={page.frame} filters={filters} page={found} hrefFor={hrefFor} />,
    );
  }

  private async newPayout(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    return this.sendForm(reply, page, 200, {}, newFormKey());
  }

  private async create(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const values = formValues(request.body);
    const key = formField(request.body, IDEMPOTENCY_FIELD);
    const owner = { accountId: page.session.accountId, environment: page.session.environment };
    const outcome = await afterEarlierSend(async () =>
      createPayoutIdempotently(this.creation, {
        owner,
        path: SEND_PAYOUTS_PATHS.create,
        key,
        body: createBody(values),
        source: 'dashboard',
        refusal: await this.preconditionRefusal(page),
        // The form makes link payouts only (createBody): no return URL is ever checked.
        assertReturnUrl: () => {
          throw new ApiError(400, 'invalid_request', 'the dashboard creates link payouts', 'delivery');
        },
      }),
    );
    if (isRefusal(outcome)) {
      // A refusal kept for the key needs a new key; a send whose outcome is open, the same one.
      const nextKey = keyReusable(outcome) && key ? key : newFormKey();
      return this.sendForm(reply, page, 400, values, nextKey, outcome);
    }
    const payoutId = (outcome.body as { payout_id: string }).payout_id;
    return this.redirectToPayout(reply, payoutId, 'payout_created');
  }

  private async payout(request: FastifyRequest<PayoutParams>, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const notice = noticeFor(request.query, NOTICES);
    return this.sendPayout(reply, page, request.params.payout_id, 200, { notice });
  }

  private cancel(request: FastifyRequest<PayoutParams>, reply: FastifyReply) {
    return this.payoutAction(
      request,
      reply,
      (owner, key, payoutId) =>
        cancelPayoutIdempotently(this.actions, {
          owner,
          path: SEND_PAYOUTS_PATHS.cancel(payoutId),
          key,
          payoutId,
        }),
      (outcome) =>
        (outcome.body as { status: string }).status === 'cancelled' ? 'payout_cancelled' : 'payout_ended',
    );
  }

  private rotateLink(request: FastifyRequest<PayoutParams>, reply: FastifyReply) {
    return this.payoutAction(
      request,
      reply,
      (owner, key, payoutId) =>
        issueClaimLinkIdempotently(this.actions, {
          owner,
          path: SEND_PAYOUTS_PATHS.rotateLink(payoutId),
          key,
          payoutId,
          rotate: true,
        }),
      () => 'link_rotated',
    );
  }

  /**
   * A payout page's button (cancel, rotate link): the payout command behind the account's
   * preconditions, with the form's key, waiting on an earlier send of the same form; a refusal is
   * shown on the payout's page, a success is a 303 to it with its notice.
   */
  private async payoutAction(
    request: FastifyRequest<PayoutParams>,
    reply: FastifyReply,
    run: (owner: PayoutOwner, key: string | undefined, payoutId: string) => Promise<IdempotentResult>,
    noticeOf: (outcome: IdempotentResult) => NoticeCode,
  ) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const payoutId = request.params.payout_id;
    if (!PAYOUT_ID.test(payoutId)) return this.notFound(reply, page);
    const key = formField(request.body, IDEMPOTENCY_FIELD);
    const owner = { accountId: page.session.accountId, environment: page.session.environment };
    const outcome = await afterEarlierSend(async () => {
      const refusal = await this.preconditionRefusal(page);
      if (refusal) throw refusal;
      return run(owner, key, payoutId);
    });
    if (isRefusal(outcome)) return this.sendPayout(reply, page, payoutId, 400, { refusal: outcome });
    return this.redirectToPayout(reply, payoutId, noticeOf(outcome));
  }

  /**
   * The account's preconditions of every payout command, as the payout guard checks them (the
   * signed-in administrator needs no credential scope): approved, and payouts on here.
   */
  private async preconditionRefusal(page: SignedInPage): Promise<ApiError | undefined> {
    const switches = await this.accounts.environmentSettings(
      page.session.accountId,
      page.session.environment,
    );
    return accountPreconditionRefusal(switches ?? { payoutsApproved: false, payoutsEnabled: false });
  }

  private async sendForm(
    reply: FastifyReply,
    page: SignedInPage,
    status: number,
    values: PayoutFormValues,
    idempotencyKey: string,
    refusal?: PageRefusal,
  ) {
    const { accountId, environment } = page.session;
    const [balance, blocked] = await Promise.all([
      this.queries.balance(accountId, environment),
      this.preconditionRefusal(page),
    ]);
    const allowance: PayoutAllowance = balance.available
      ? allowanceOf(balance.body)
      : { available: false, reason: balance.body.reason };
    return sendPage(
      reply,
      status,
      <NewPayoutPage
        frame={page.frame}
        values={values}
        idempotencyKey={idempotencyKey}
        refusal={refusal}
        allowance={allowance}
        blocked={blocked ? refusalOf(blocked) : undefined}
      />,
    );
  }

  /** The payout page (Get Payout's fields, the current link, the history), or 404 when not this account's here. */
  private async sendPayout(
    reply: FastifyReply,
    page: SignedInPage,
    payoutId: string,
    status: number,
    outcome: { notice?: string | null; refusal?: PageRefusal },
  ) {
    if (!PAYOUT_ID.test(payoutId)) return this.notFound(reply, page);
    const { accountId, environment } = page.session;
    // Another account's or environment's payout is indistinguishable from no payout.
    const payout = await this.queries.find(accountId, environment, payoutId);
    if (!payout) return this.notFound(reply, page);
    const [timeline, link] = await Promise.all([
      payoutTimeline(this.store, payoutId),
      payout.delivery === 'link' && payout.status === 'awaiting_choice'
        ? this.currentLink(accountId, environment, payoutId)
        : Promise.resolve(null),
    ]);
    return sendPage(
      reply,
      status,
      <PayoutPage
        frame={page.frame}
        payout={payout}
        timeline={timeline}
        link={link}
        notice={outcome.notice}
        refusal={outcome.refusal}
        keys={{ rotate: newFormKey(), cancel: newFormKey() }}
      />,
    );
  }

  /** The current claim link shown again: Get Claim Link's command without rotate (nothing is written). */
  private async currentLink(
    accountId: string,
    environment: SignedInPage['session']['environment'],
    payoutId: string,
  ): Promise<PayoutLink> {
    try {
      const issued = await this.commands.execute(
        new IssueClaimLinkCommand(accountId, environment, payoutId, false),
      );
      const body = issued.answer?.body as { url: string; access_link_expires_at: string } | undefined;
      return body ? { url: body.url, expiresAt: body.access_link_expires_at } : null;
    } catch (error) {
      if (error instanceof DomainError) return { problem: refusalOf(error) };
      throw error;
    }
  }

  private notFound(reply: FastifyReply, page: SignedInPage) {
    return sendPage(reply, 404, <PayoutNotFoundPage frame={page.frame} />);
  }

  private redirectToPayout(reply: FastifyReply, payoutId: string, notice: NoticeCode) {
    return reply.redirect(`${SEND_PAYOUTS_PATHS.payout(payoutId)}?notice=${notice}`, 303);
  }
}

/** The posted form's values, trimmed (what is shown again on a refusal). */
function formValues(body: unknown): PayoutFormValues {
  const values: PayoutFormValues = {};
  for (const name of PAYOUT_FORM_FIELDS) {
    const value = formField(body, name);
    if (value !== undefined) values[name] = value.trim();
  }
  return values;
}

/**
 * Create Payout's body of a link payout from the form: an empty optional field is left out, as an
 * API caller would; an empty amount or reference is sent empty, so Create Payout's rules word it.
 */
function createBody(values: PayoutFormValues): Record<string, string> {
  const body: Record<string, string> = {
    amount: values.amount ?? '',
    merchant_reference: values.merchant_reference ?? '',
    delivery: 'link',
  };
  for (const name of [
    'currency',
    'customer_email',
    'description',
    'case_reference',
    'original_payment_id',
  ] as const) {
    const value = values[name];
    if (value) body[name] = value;
  }
  return body;
}

function allowanceOf(body: Record<string, unknown>): PayoutAllowance {
  const limits = body.limits as { fee_per_payout: string; min_payout: string; max_payout: string };
  return {
    available: true,
    availableForNewCommitments: String(body.available_for_new_commitments),
    feePerPayout: limits.fee_per_payout,
    minPayout: limits.min_payout,
    maxPayout: limits.max_payout,
    currency: String(body.currency),
  };
}
