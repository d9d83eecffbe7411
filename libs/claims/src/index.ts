/**
 * The recipient's claim: verification codes, page sessions, receiving details, and the rules of
 * getting in to the recipient's pages (RecipientFlow) (issue 4).
 */
export * from './receiving-details-vault';
export * from './postgres-receiving-details-vault';
export * from './verification-code-store';
export { VERIFICATION_CODE_LIMITS } from './verification-code-limits';
export type { CodeCheck, CodeIssue } from './verification-code-limits';
export * from './page-session-store';
export * from './claims-keys';
export * from './recipient-errors';
export * from './recipient-flow';
export * from './claims.module';
