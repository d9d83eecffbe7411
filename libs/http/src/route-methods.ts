import { ApiError } from './api-error';

interface Route {
  /** The pattern's path segments: text, or PARAMETER, or REST (a trailing wildcard). */
  segments: string[];
  methods: Set<string>;
}

const PARAMETER = '\0:';
const REST = '\0*';

/**
 * The methods each route pattern of an app takes, so that a request whose path is known but whose
 * method is not is answered 405 with `Allow` (RFC 9110 15.5.6), as the best APIs do, rather than
 * a 404 that tells a caller the path does not exist. Fed by Fastify's onRoute hook; read only for
 * requests the router did not match, so no request that is routed pays for it.
 */
export class RouteMethods {
  private readonly routes = new Map<string, Route>();

  add(method: string | readonly string[], url: string): void {
    let route = this.routes.get(url);
    if (!route) {
      route = { segments: url.split('/').map(patternSegment), methods: new Set() };
      this.routes.set(url, route);
    }
    for (const one of typeof method === 'string' ? [method] : method) {
      route.methods.add(one.toUpperCase());
      // Fastify answers HEAD for every GET route (exposeHeadRoutes).
      if (one.toUpperCase() === 'GET') route.methods.add('HEAD');
    }
  }

  /** The methods some route takes on `url`'s path (query ignored), sorted; empty for an unknown path. */
  allowedOn(url: string): string[] {
    const query = url.indexOf('?');
    const path = (query === -1 ? url : url.slice(0, query)).split('/');
    const allowed = new Set<string>();
    for (const route of this.routes.values()) {
      if (matches(route.segments, path)) for (const method of route.methods) allowed.add(method);
    }
    return [...allowed].sort();
  }

  /** 405 method_not_allowed with `Allow` when `url`'s path takes other methods, else undefined. */
  refusal(method: string, url: string): ApiError | undefined {
    const allowed = this.allowedOn(url);
    if (allowed.length === 0 || allowed.includes(method)) return undefined;
    return new ApiError(
      405,
      'method_not_allowed',
      `${method} is not allowed on this path; it takes ${allowed.join(', ')}`,
      undefined,
      { Allow: allowed.join(', ') },
    );
  }
}

/** A segment with a parameter (":id", "po_:id") matches any one non-empty segment; "*" the rest. */
function patternSegment(segment: string): string {
  if (segment === '*') return REST;
  return segment.includes(':') ? PARAMETER : segment;
}

function matches(pattern: readonly string[], path: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i]!;
    if (expected === REST) return true;
    const actual = path[i];
    if (actual === undefined) return false;
    if (expected === PARAMETER ? actual.length === 0 : expected !== actual) return false;
  }
  return pattern.length === path.length;
}
