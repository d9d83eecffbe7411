import { ApiError } from '@payouts/http';
import {
  EventLogEntry,
  NoWebhookEndpointError,
  ResendInProgressError,
  WebhookEndpoint,
} from '@payouts/webhooks';

// What the dashboard's payout webhook routes answer (payout-webhook.controller.ts): the store's
// records in the API's snake_case, and the store's refusals as API errors.

export function endpointView(endpoint: WebhookEndpoint) {
  return { environment: endpoint.environment, url: endpoint.url, created_at: endpoint.createdAt };
}

/** The endpoint with its secret's overlap and its disabling (GET, enable). */
export function endpointStateView(endpoint: WebhookEndpoint) {
  return {
    ...endpointView(endpoint),
    secret_rotated_at: endpoint.secretRotatedAt,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt,
    failing_since: endpoint.failingSince,
    disabled_at: endpoint.disabledAt,
    disabled_reason: endpoint.disabledReason,
  };
}

export function eventView(entry: EventLogEntry) {
  return {
    event_id: entry.eventId,
    type: entry.type,
    environment: entry.environment,
    payout_id: entry.payoutId,
    created_at: entry.createdAt,
    body: entry.body,
    deliveries: entry.deliveries.map((d) => ({
      delivery_id: d.deliveryId,
      trigger: d.trigger,
      status: d.status,
      attempts_made: d.attemptsMade,
      max_attempts: d.maxAttempts,
      next_attempt_at: d.nextAttemptAt,
      created_at: d.createdAt,
      finished_at: d.finishedAt,
      attempts: d.attempts.map((a) => ({
        attempt_number: a.attemptNumber,
        attempted_at: a.attemptedAt,
        url: a.url,
        signature_timestamp: a.signatureTimestamp,
        status_code: a.statusCode,
        latency_ms: a.latencyMs,
        delivered: a.delivered,
        error: a.error,
        response_body: a.responseBody,
      })),
    })),
  };
}

export function asApiError(error: unknown): unknown {
  if (error instanceof NoWebhookEndpointError) return new ApiError(409, 'no_webhook_endpoint', error.message);
  if (error instanceof ResendInProgressError) return new ApiError(409, 'resend_in_progress', error.message);
  return error;
}
