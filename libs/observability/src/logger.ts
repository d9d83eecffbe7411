import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * Structured JSON logs. Credentials never reach a log line: authorization headers and cookies are
 * redacted wherever they appear.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  '*.token',
  '*.secret',
  '*.admin_token',
];

/**
 * Claim-link, handoff and hosted checkout page URLs carry a bearer token in the path
 * (`/claim/<token>`, `/checkout/<token>`): whoever holds it opens the page, and only its hash is
 * stored, so request logs keep the path's shape and drop the token.
 */
export function redactUrl(url: string): string {
  return url.replace(/\/(claim|handoff|checkout)\/[^/?#]+/, '/$1/[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function createRootLogger(level: string, app: string): Logger {
  return pino({
    level,
    base: { app },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** Nest's logger interface on top of pino, so framework messages are JSON too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
