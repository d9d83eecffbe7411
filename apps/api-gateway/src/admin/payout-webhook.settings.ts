import { Logger } from '@nestjs/common';
import { resolveEncryptionKeys, SecretBox } from '@payouts/accounts';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { Environment } from '@payouts/domain';
import {
  EventLogEntry,
  NoWebhookEndpointError,
  TargetPolicy,
  WebhookEndpoint,
  WebhookEndpoints,
  WebhookEvents,
} from '@payouts/webhooks';
import { asApiError } from './payout-webhook.views';
import { checkedWebhookUrl } from './webhook-target';

/**
 * What the payout webhook settings do (docs/webhooks.md), for the JSON routes
 * (payout-webhook.controller.ts) and the dashboard's API integration page alike: every rule and
 * refusal is here once. Refusals are thrown as ApiError (400 `invalid_request` on `url`, 409
 * `no_webhook_endpoint` or `resend_in_progress`); each caller shows them its own way. Times are
 * the environment's clock (the sandbox clock in the sandbox).
 */
export class PayoutWebhookSettings {
  private readonly endpoints: WebhookEndpoints;
  private readonly events: WebhookEvents;
  private readonly policy: TargetPolicy;
  private readonly logger = new Logger('PayoutWebhooks');

  constructor(
    db: SqlClient,
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.endpoints = new WebhookEndpoints(db, new SecretBox(resolveEncryptionKeys(config)));
    this.events = new WebhookEvents(db);
    this.policy = { allowInsecure: config.webhooks.allowInsecureTargets };
  }

  /**
   * Sets the URL (https, public addresses only, after DNS resolution) with a new secret, returned
   * once. What a refused name resolved to goes to the operator's log, never to the caller.
   */
  async save(
    accountId: string,
    environment: Environment,
    rawUrl: string,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const url = await checkedWebhookUrl(rawUrl, this.policy, {
      logger: this.logger,
      what: 'payout webhook',
      accountId,
    });
    return this.endpoints.save(accountId, environment, url, this.clock.now(environment));
  }

  /** The endpoint as it is now (never its secret); null when none is set. */
  get(accountId: string, environment: Environment): Promise<WebhookEndpoint | null> {
    return this.endpoints.get(accountId, environment, this.clock.now(environment));
  }

  /** A new secret (returned once); the old one keeps signing for 24 hours. */
  async rotateSecret(
    accountId: string,
    environment: Environment,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const rotated = await this.endpoints.rotateSecret(accountId, environment, this.clock.now(environment));
    if (!rotated) throw asApiError(new NoWebhookEndpointError());
    this.logger.log(`payout webhook secret rotated (account ${accountId}, ${environment})`);
    return rotated;
  }

  /** Enables an endpoint disabled after 5 days of failed attempts (nothing changes otherwise). */
  async enable(
    accountId: string,
    environment: Environment,
  ): Promise<{ endpoint: WebhookEndpoint; wasDisabled: boolean; rescheduledDeliveries: number }> {
    const enabled = await this.endpoints.enable(accountId, environment, this.clock.now(environment));
    if (!enabled) throw asApiError(new NoWebhookEndpointError());
    if (enabled.wasDisabled) {
      this.logger.log(
        `payout webhook endpoint enabled again (account ${accountId}, ${environment}): ${enabled.rescheduledDeliveries} deliveries due`,
      );
    }
    return enabled;
  }

  /** Stop sending: the endpoint and its secret go, and what was waiting is dropped. Idempotent. */
  remove(
    accountId: string,
    environment: Environment,
  ): Promise<{ removed: boolean; droppedDeliveries: number }> {
    return this.endpoints.remove(accountId, environment, this.clock.now(environment));
  }

  /** A payout.test event with one attempt, due at once. */
  async sendTest(
    accountId: string,
    environment: Environment,
  ): Promise<{ eventId: string; deliveryId: string }> {
    try {
      return await this.events.sendTest(accountId, environment, this.clock.now(environment));
    } catch (error) {
      throw asApiError(error);
    }
  }

  /** The delivery log of one environment, newest first (limit and offset already checked). */
  list(
    accountId: string,
    environment: Environment,
    filter: { payoutId?: string; limit: number; offset: number },
  ): Promise<{ total: number; limit: number; offset: number; data: EventLogEntry[] }> {
    return this.events.list(accountId, environment, filter);
  }

  /** One event of the account with every delivery and attempt; null when it has none such. */
  event(accountId: string, eventId: string): Promise<EventLogEntry | null> {
    return this.events.get(accountId, eventId);
  }

  /** One more attempt of an event (same body and id); null when the account has no such event. */
  async resend(accountId: string, eventId: string): Promise<{ deliveryId: string } | null> {
    try {
      return await this.events.resend(accountId, eventId, (environment) => this.clock.now(environment));
    } catch (error) {
      throw asApiError(error);
    }
  }
}
