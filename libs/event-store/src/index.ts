export * from './event-store.port';
export * from './errors';
export * from './feed-checkpoint';
export * from './postgres/postgres-event-store';
