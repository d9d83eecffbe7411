export * from './tokens';
export * from './infrastructure.module';
export * from './health.module';
export * from './health.controller';
export * from './metrics.module';
export * from './feed-lag';
export * from './bootstrap';
export * from './page-not-found';
