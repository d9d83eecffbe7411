import 'reflect-metadata';
import { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, ConfigurationError, loadConfig } from '@payouts/config';
import {
  createRootLogger,
  instrumentHttp,
  Metrics,
  PinoNestLogger,
  requestIdFrom,
} from '@payouts/observability';
import {
  AdmissionGate,
  ADMISSION_LIMITS,
  answerClientError,
  ApiError,
  ApiExceptionFilter,
  OverloadedError,
  parseJsonBody,
  repeatedHeaderRefusal,
  requestTargetRefusal,
  RouteMethods,
  sendApiError,
  unstorableTextRefusal,
} from '@payouts/http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { performance } from 'node:perf_hooks';
import { answeredAsPageNotFound } from './page-not-found';
import { METRICS } from './tokens';

/** Request bodies above this are refused before they are parsed (Tiger style: a limit on everything). */
export const BODY_LIMIT_BYTES = 64 * 1024;

export type RootModuleFactory = (config: AppConfig) => DynamicModule;
/** App-specific setup that needs the app instance (e.g. the OpenAPI routes), run before it listens. */
export type ConfigureApp = (app: NestFastifyApplication) => void;

/**
 * Builds one app (or all of them, in the embedded start) on Fastify with JSON logs and a request
 * id on every request and response. Does not listen; tests call this and `listen` themselves.
 */
export async function createApp(
  appName: string,
  rootModule: RootModuleFactory,
  config: AppConfig,
  configure?: ConfigureApp,
): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config.logLevel, appName);
  const httpLogger = logger.child({ component: 'http' });
  const adapter = new FastifyAdapter({
    loggerInstance: httpLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    // The client's address (request.ip) through the listed reverse proxies only; none: the peer.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) =>
      requestIdFrom(req.headers['request-id'] ?? req.headers['x-request-id']),
    // What Node's HTTP parser refuses (a control character in a header, headers too large) gets
    // the documented error body and a Request-Id too, not Fastify's own body.
    clientErrorHandler: answerClientError(httpLogger),
    // A path Fastify cannot decode (e.g. %FF) gets the documented error body, like every other error.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('Request-Id', request.id);
      sendApiError(
        reply,
        new ApiError(400, 'invalid_request', `the request target is not valid: ${error.message}`),
      );
    },
  });
  const fastify = adapter.getInstance();
  // JSON bodies are read strictly (UTF-8 only, bounded depth, no repeated key): strict-json.ts.
  // Through Nest's useBodyParser, so that Nest does not register its own JSON parser over it.
  adapter.useBodyParser('application/json', false, { bodyLimit: BODY_LIMIT_BYTES }, parseJsonBody);
  // JSON bodies only: without a parser for text/plain, Fastify answers 415 for it (and for any other type).
  fastify.removeContentTypeParser(['text/plain']);
  const routeMethods = new RouteMethods();
  fastify.addHook('onRoute', (route) => routeMethods.add(route.method, route.url));
  fastify.addHook('onRequest', (request, reply, done) => {
    // Before anything reads a header: a repeated Authorization or Idempotency-Key is refused, not merged.
    const repeated = repeatedHeaderRefusal(request.raw.rawHeaders);
    if (repeated) return sendApiError(reply, repeated);
    // One reading of a path: a target the router would read other than as sent (`/%73andbox`,
    // a ".." segment) is refused before any route runs (request-target.ts). On an app's HTML
    // pages that is their "not found" page, as for any link the service never issued.
    const target = requestTargetRefusal(request.url);
    if (target) {
      if (!answeredAsPageNotFound(fastify, request, reply)) sendApiError(reply, target);
      return;
    }
    const refusal =
      // A path the router knows with a method it does not: 405 with Allow (route-methods.ts).
      (request.is404 ? routeMethods.refusal(request.method, request.url) : undefined) ??
      // Path and query values are text for SQL parameters: one the database cannot store (%00, or
      // an unpaired surrogate) is refused here, before a guard or handler reads it.
      unstorableTextRefusal(request.params, 'parameter') ??
      unstorableTextRefusal(request.query, 'parameter');
    if (refusal) return sendApiError(reply, refusal);
    // A path on an app's pages that no route takes is their "not found" page, answered before a
    // body is read: a form posted there is not the API's 415, nor its JSON 404.
    if (noRouteTakes(request) && answeredAsPageNotFound(fastify, request, reply)) return;
    done();
  });
  admitCommands(fastify, new AdmissionGate({ ...ADMISSION_LIMITS, ...config.commandsInFlight }));
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('Request-Id', request.id);
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule(config), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  // Every answer counted and timed in the app's registry (InfrastructureModule's), by route
  // template; added before the app registers its routes, when it is initialised.
  instrumentHttp(fastify, app.get<Metrics>(METRICS));
  // Every error, including Fastify's body-parsing ones (Nest routes them here), gets one body.
  app.useGlobalFilters(new ApiExceptionFilter());
  configure?.(app);
  return app;
}

/**
 * Whether no route answers the request: the router matched none, or only one with an empty
 * parameter (`/checkout/` for `/checkout/:token`), which Nest's Fastify adapter passes on to the
 * not-found handler too (only a trailing wildcard may be empty).
 */
function noRouteTakes(request: FastifyRequest): boolean {
  if (request.is404) return true;
  const params = (request.params ?? {}) as Record<string, unknown>;
  return Object.entries(params).some(([name, value]) => value === '' && name !== '*');
}

/** Methods that change something: the commands the admission gate bounds (reads are not held back). */
const COMMAND_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every command passes the process's admission gate before its body is read: past the measured
 * bound on commands in flight it is refused at once with 503 overloaded and Retry-After, having
 * cost almost nothing, so that what is let in is answered in time (admission-gate.ts).
 */
function admitCommands(fastify: FastifyInstance, gate: AdmissionGate): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!COMMAND_METHODS.has(request.method)) return done();
    if (!gate.enter()) return sendApiError(reply, new OverloadedError('commands in flight'));
    const started = performance.now();
    // 'close' comes once for every response, answered or abandoned by its client.
    reply.raw.once('close', () => gate.leave(performance.now() - started));
    done();
  });
}

/**
 * The entry point of every app: configuration errors and an unreachable database end the
 * process with one clear line and exit code 1; SIGTERM closes the HTTP server, stops the
 * subscribers, then closes the database, so nothing is left half-written, and exits 0.
 */
export async function runApp(
  appName: string,
  rootModule: RootModuleFactory,
  configure?: ConfigureApp,
): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) return fail(appName, `invalid configuration: ${error.message}`);
    throw error;
  }
  const logger = createRootLogger(config.logLevel, appName);
  try {
    const app = await createApp(appName, rootModule, config, configure);
    closeOnSignals(app, logger);
    await app.listen(config.port, config.host);
    logger.info(
      { port: config.port, database: config.databaseUrl ? 'postgres' : `embedded (${config.dataDir})` },
      `${appName} listening on ${config.host}:${config.port}`,
    );
  } catch (error) {
    return fail(appName, `cannot start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Longer than a projector batch, shorter than a container's usual grace period (30 s). */
const SHUTDOWN_TIMEOUT_MS = 25_000;

/**
 * SIGTERM/SIGINT: stop listening, let Nest stop the subscribers (onModuleDestroy) and close the
 * database (onApplicationShutdown), then exit 0. A shutdown that hangs is cut off with exit 1.
 */
function closeOnSignals(app: NestFastifyApplication, logger: Logger): void {
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => {
        logger.info('shut down cleanly');
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}

function fail(appName: string, message: string): void {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', app: appName, msg: message })}\n`);
  process.exitCode = 1;
}
