import { Logger } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import { normaliseOrigin } from '@payouts/accounts';
import type { AccountsRepository, IssuedCredential } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import { currenciesOfRegion, DEFAULT_CARD_REGIONS, ledgerStreamId, PAYOUT_CURRENCY } from '@payouts/domain';
import type { Environment } from '@payouts/domain';
import { ApiError, apiValidationPipe } from '@payouts/http';
import { SetRetainedTargetCommand } from '@payouts/settlements';
import type { TargetPolicy } from '@payouts/webhooks';
import { isAcceptedReturnUrl } from '../payouts/create-payout/return-url-rule';
import type { IssueCredentialDto, PayoutsEnabledDto, ReturnUrlOriginsDto } from './admin.dto';
import type { RetainedTargetDto } from './funds.dto';
import type { PayoutWebhookEndpointDto } from './payout-webhook.dto';
import { checkedWebhookUrl } from './webhook-target';

/** Currencies a ledger can be in: those any checkout region may charge (orders make the ledgers). */
const SETTLED_CURRENCIES: ReadonlySet<string> = new Set([
  PAYOUT_CURRENCY,
  ...DEFAULT_CARD_REGIONS.flatMap((region) => currenciesOfRegion(region)),
]);

/**
 * A body checked by its DTO exactly as a JSON route's `@Body(apiValidationPipe())` checks it (the
 * same rules, codes and messages; the first refusal thrown as ApiError with its field as `param`),
 * for callers that are not Nest routes: the dashboard's pages build the body from a form.
 */
export async function checkedBody<Dto>(dto: Type<Dto>, body: Record<string, unknown>): Promise<Dto> {
  return (await apiValidationPipe().transform(body, { type: 'body', metatype: dto })) as Dto;
}

/**
 * The account administrator's settings (docs/design.md#operator-and-dashboard): payouts switch,
 * credentials, return URL origins, retained target and checkout webhook URL, for the JSON routes
 * (dashboard.controller.ts, checkout-webhook.controller.ts) and the dashboard's Settings page
 * alike, so every rule and refusal beyond the DTOs' is here once. Bodies come already checked by
 * their DTO (the routes' pipe, or checkedBody); refusals are thrown as ApiError.
 */
export class AccountSettings {
  private readonly webhookPolicy: TargetPolicy;
  private readonly webhookLogger = new Logger('CheckoutWebhooks');

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly commands: CommandBus,
    config: AppConfig,
  ) {
    this.webhookPolicy = { allowInsecure: config.webhooks.allowInsecureTargets };
  }

  /** How much of available the automatic settlement leaves on one ledger (USD when no currency). */
  async setRetainedTarget(
    accountId: string,
    body: RetainedTargetDto,
  ): Promise<{ environment: Environment; currency: string; retainedTarget: string }> {
    const currency = body.currency ?? PAYOUT_CURRENCY;
    if (!SETTLED_CURRENCIES.has(currency)) {
      throw new ApiError(400, 'unsupported_currency', `no ledger is kept in ${currency}`, 'currency');
    }
    const result = await this.commands.execute(
      new SetRetainedTargetCommand(ledgerStreamId(accountId, body.environment, currency), body.amount),
    );
    return { environment: body.environment, currency, retainedTarget: result.retainedTarget };
  }

  async setPayoutsEnabled(accountId: string, body: PayoutsEnabledDto): Promise<void> {
    await this.accounts.setPayoutsEnabled(accountId, body.environment, body.enabled);
  }

  /** The token (and a checkout credential's API secret) is in the answer once; only verifiers are kept. */
  async issueCredential(accountId: string, body: IssueCredentialDto): Promise<IssuedCredential> {
    // As for every optional field (IsOptional), null means left out: a payout credential gets both scopes.
    const scopes = body.scopes ?? undefined;
    if (body.kind === 'checkout' && scopes !== undefined) {
      throw new ApiError(400, 'invalid_request', 'checkout credentials carry no payout scopes', 'scopes');
    }
    if (body.kind === 'payout' && scopes !== undefined && scopes.length === 0) {
      throw new ApiError(400, 'invalid_request', 'a payout credential needs at least one scope', 'scopes');
    }
    return this.accounts.issueCredential(accountId, {
      kind: body.kind,
      environment: body.environment,
      scopes,
    });
  }

  /** Effective from the next request; 404 when the credential is not this account's. */
  async revokeCredential(accountId: string, credentialId: string): Promise<void> {
    if (!(await this.accounts.revokeCredential(accountId, credentialId))) {
      throw new ApiError(404, 'not_found', 'no such credential');
    }
  }

  /**
   * Replaces the origins Create Payout accepts a `return_url` on: each an http(s) origin (scheme,
   * host, port; no path, no wildcard) whose URLs return_url accepts. Stored normalised, once each.
   */
  async setReturnUrlOrigins(accountId: string, body: ReturnUrlOriginsDto): Promise<string[]> {
    const origins = body.origins.map((origin, index) => {
      const normalised = normaliseOrigin(origin);
      // An origin is scheme, host and port only: no path, no wildcard.
      if (!normalised || origin.includes('*')) {
        throw new ApiError(
          400,
          'invalid_request',
          `origins[${index}] must be an http(s) origin such as https://shop.example.com`,
          'origins',
        );
      }
      // Create Payout's own return_url rule: an origin none of whose URLs it accepts (a host with an
      // underscore or a trailing dot) could never be used.
      if (!isAcceptedReturnUrl(`${normalised}/`)) {
        throw new ApiError(
          400,
          'invalid_request',
          `origins[${index}] has a host that return_url does not accept (no underscore, no trailing dot)`,
          'origins',
        );
      }
      return normalised;
    });
    const unique = [...new Set(origins)];
    await this.accounts.setReturnUrlOrigins(accountId, body.environment, unique);
    return unique;
  }

  /**
   * The checkout webhook URL new orders capture as their hook_url, checked as every delivery will
   * check it (https, public addresses after DNS); its normalised form.
   */
  async setCheckoutWebhookUrl(accountId: string, body: PayoutWebhookEndpointDto): Promise<string> {
    const url = await checkedWebhookUrl(body.url, this.webhookPolicy, {
      logger: this.webhookLogger,
      what: 'checkout webhook',
      accountId,
    });
    await this.accounts.setCheckoutWebhookUrl(accountId, body.environment, url);
    return url;
  }
}
