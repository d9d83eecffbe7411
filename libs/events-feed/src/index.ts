export * from './feed-event';
export * from './feed-event-ids';
export * from './events-feed';
