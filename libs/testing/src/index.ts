export * from './test-databases';
