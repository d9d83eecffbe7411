/**
 * Every error the API answers, in one body (docs/design.md#error-body):
 * {"error":{"code":"<code>","message":"<human text>","param":"<field, if any>"}}
 */
export interface ApiErrorBody {
  error: { code: string; message: string; param?: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}) },
    };
  }
}

export const invalidRequest = (message: string, param?: string): ApiError =>
  new ApiError(400, 'invalid_request', message, param);
export const notFound = (what = 'payout'): ApiError => new ApiError(404, 'not_found', `no such ${what}`);
