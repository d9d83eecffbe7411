export * from './read-model-client';
export * from './read-model.projection';
export * from './payout-list.projection';
export * from './balance.projection';
export * from './payout-views';
