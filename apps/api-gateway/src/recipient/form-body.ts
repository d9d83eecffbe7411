import type { FastifyInstance } from 'fastify';

/**
 * Only the recipient's pages and the hosted checkout page take HTML form posts; every API endpoint
 * stays JSON-only (415).
 */
export function isRecipientFormPath(url: string): boolean {
  // Any one segment under /checkout: a malformed page token is then the page's HTML 404, not a 415.
  return /^(\/sandbox)?\/recipient\/[a-z-]+(\?.*)?$/.test(url) || /^\/checkout\/[^/?#]+(\?.*)?$/.test(url);
}

const MAX_FIELDS = 20;

/**
 * application/x-www-form-urlencoded for the pages: flat string fields, each name once. The body
 * limit of the app (64 KiB) applies before this runs.
 */
export function registerFormParser(fastify: FastifyInstance): void {
  // Nest's Fastify adapter registers its own form parser for every route; ours replaces it.
  if (fastify.hasContentTypeParser('application/x-www-form-urlencoded')) {
    fastify.removeContentTypeParser('application/x-www-form-urlencoded');
  }
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, body, done) => {
      if (!isRecipientFormPath(request.url)) {
        const error = Object.assign(new Error(`Unsupported Media Type`), {
          code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
          statusCode: 415,
        });
        done(error, undefined);
        return;
      }
      const fields: Record<string, string> = {};
      let count = 0;
      for (const [name, value] of new URLSearchParams(String(body))) {
        count += 1;
        if (count > MAX_FIELDS || name in fields) {
          done(Object.assign(new Error('malformed form'), { statusCode: 400 }), undefined);
          return;
        }
        fields[name] = value;
      }
      done(null, fields);
    },
  );
}
