/**
 * The clock of the dashboard's sessions and sign-in lockout: real time (never the sandbox clock:
 * signing in is not sandbox data). A token of its own so tests can move it.
 */
export const DASHBOARD_CLOCK = Symbol('DASHBOARD_CLOCK');
