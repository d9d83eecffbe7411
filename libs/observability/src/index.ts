export * from './logger';
export * from './request-id';
