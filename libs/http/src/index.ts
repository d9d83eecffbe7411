// HTTP plumbing shared by every app: the one error body, the exception filter, validation, strict
// JSON bodies and the refusals made before a request reaches a controller.
export * from './api-date';
export * from './api-error';
export * from './error-body.schema';
export * from './api-exception.filter';
export * from './domain-error-statuses';
export * from './api-validation.pipe';
export * from './client-error';
export * from './json-body-parser';
export * from './repeated-headers';
export * from './request-target';
export * from './route-methods';
export * from './strict-json';
export * from './unstorable-text';
export * from './admission-gate';
export * from './burst-allowance';
export * from './overloaded-error';
