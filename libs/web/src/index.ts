/**
 * The dashboard's page kit (docs/dashboard.md#the-page-kit): server-rendered Preact pages, the
 * layout and form helpers, the stylesheet, and the Fastify scope that gives pages their cookies,
 * CSRF check and security headers.
 */
export * from './paths';
export * from './navigation';
export * from './page-frame';
export * from './document';
export * from './layout';
export * from './environment-switch';
export * from './forms';
export * from './form-fields';
export * from './render-page';
export * from './send-page';
export * from './stylesheet';
export * from './page-scope';
export * from './local-time';
export * from './notices';
export * from './pagination';
export * from './data-table';
export * from './timeline';
export * from './filter-form';
export * from './field-frame';
export * from './hosted-page-scope';
export * from './hosted-page';
