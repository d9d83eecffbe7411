/** Injection tokens for the infrastructure the application layer needs. */
export const SQL_CLIENT = Symbol('SQL_CLIENT');
export const EVENT_STORE = Symbol('EVENT_STORE');
export const READ_MODELS = Symbol('READ_MODELS');
export const CLOCK = Symbol('CLOCK');
export const APP_CONFIG = Symbol('APP_CONFIG');
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
export const METRICS = Symbol('METRICS');
