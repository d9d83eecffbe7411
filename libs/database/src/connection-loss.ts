/**
 * Telling a lost or unreachable database apart from every other failure: the statement did not
 * fail on its merits, the connection under it did (a failover, a restart, a terminated backend,
 * a server refusing connections). Callers answer those with 503 and a retry, never with 500.
 */

/** Raised by our own clients while they hold off reconnecting to a server that just refused them. */
export class DatabaseUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super(`the database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

/** Node's socket errors that mean the connection is gone or was never made. */
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a session the server ended or would not start: class 08 (connection exception),
 * admin, crash and start-up shutdowns (57P01-57P03), and too many connections (53300).
 */
const SESSION_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Prisma's codes for the same, when a read model query lost its connection. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
/** The kinds Prisma's pg adapter gives a lost or refused connection. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/** pg's own messages for a connection that ended or could not be made (plain Errors, no code). */
const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end on the pool',
];

/** Errors wrap their causes (pg-pool, Prisma): a few levels are plenty, and the walk is bounded. */
const MAX_CAUSE_DEPTH = 8;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (
    let depth = 0;
    depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null;
    depth += 1
  ) {
    if (current instanceof DatabaseUnavailableError) return true;
    if (describesLostConnection(current as Record<string, unknown>)) return true;
    const { cause, meta } = current as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
    current = cause ?? meta?.driverAdapterError;
  }
  return false;
}

function describesLostConnection(error: Record<string, unknown>): boolean {
  const { code, severity, kind, message } = error;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SESSION_STATES.has(code) || PRISMA_CODES.has(code)) return true;
    if (code.startsWith('08') && code.length === 5) return true;
  }
  // A FATAL or PANIC from the server ends the session, whatever its SQLSTATE (for example 55000,
  // a database that is not accepting connections).
  if (severity === 'FATAL' || severity === 'PANIC') return true;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  return typeof message === 'string' && PG_MESSAGES.some((text) => message.startsWith(text));
}
