// The application's one source of time, and the sandbox clock that may run ahead of it.
export * from './clock';
export * from './sandbox-clock';
