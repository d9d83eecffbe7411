export * from './logger';
export * from './request-id';
export * from './metrics';
export * from './http-metrics';
