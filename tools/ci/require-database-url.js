'use strict';
// The PostgreSQL suites need a server; say so plainly instead of silently testing PGlite again.
if (!process.env.DATABASE_URL) {
  process.stderr.write(
    'test:pg needs DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres (see README)\n',
  );
  process.exit(2);
}
