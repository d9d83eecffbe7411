export * from './event-store.port';
export * from './errors';
export * from './feed-checkpoint';
export { encodeAppends } from './encode-appends';
export type { EncodedAppend } from './encode-appends';
export * from './postgres/postgres-event-store';
export * from './append-observer';
export * from './open-event-store';
export { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
export type { EventStoreDbOptions } from './eventstoredb/eventstoredb-event-store';
// A subscriber that also moves another subscription's checkpoint in its own batch (the projector
// linking the audit chain as it projects) takes that subscription's lock the way the store does.
export {
  lockCheckpoint as lockSubscriptionCheckpoint,
  loadCheckpointRow as loadSubscriptionCheckpoint,
  saveCheckpoint as saveSubscriptionCheckpoint,
  takeCheckpointLock as takeSubscriptionLock,
} from './postgres/read-sql';
