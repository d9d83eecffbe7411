import type { Logger } from '@nestjs/common';
import { ApiError } from '@payouts/http';
import { resolveTarget, TargetPolicy, TargetRefusedError } from '@payouts/webhooks';

/**
 * A webhook URL the dashboard saves, checked as every delivery will check it (https, public
 * addresses only, after DNS resolution): its normalised form, or 400 invalid_request on `url`.
 * What the name resolved to goes to the operator's log, never to the caller.
 */
export async function checkedWebhookUrl(
  url: string,
  policy: TargetPolicy,
  log: { logger: Logger; what: string; accountId: string },
): Promise<string> {
  try {
    return (await resolveTarget(url, policy)).url.href;
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      log.logger.log(`${log.what} URL refused for ${log.accountId} (${error.code}): ${error.detail}`);
      throw new ApiError(400, 'invalid_request', error.message, 'url');
    }
    throw error;
  }
}
