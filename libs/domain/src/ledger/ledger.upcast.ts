import { LEDGER_EVENT_SCHEMA_VERSIONS, LedgerEvent } from './ledger.events';

/** What FundsCredited schema 1 (before reasons were kept) reads as. */
export const REASON_NOT_RECORDED = 'not recorded (credited before reasons were kept)';

/**
 * Reads a stored ledger event of any schema version this build knows as the current shape. Old
 * events are never rewritten: each older version goes through its upcaster here, on every read.
 * A version newer than this build, or an unknown type, is refused rather than guessed at.
 */
export function upcastLedgerEvent(stored: {
  type: string;
  schemaVersion: number;
  data: unknown;
}): LedgerEvent {
  const current = LEDGER_EVENT_SCHEMA_VERSIONS[stored.type as LedgerEvent['type']];
  if (current === undefined) throw new Error(`unknown ledger event type ${stored.type}`);
  if (stored.schemaVersion === current) return { type: stored.type, data: stored.data } as LedgerEvent;
  if (stored.type === 'FundsCredited' && stored.schemaVersion === 1) {
    // Schema 2 added `reason`: a credit of schema 1 carried only its reference.
    const data = stored.data as Omit<Extract<LedgerEvent, { type: 'FundsCredited' }>['data'], 'reason'>;
    return { type: 'FundsCredited', data: { ...data, reason: REASON_NOT_RECORDED } };
  }
  throw new Error(
    `ledger event ${stored.type} has schema version ${stored.schemaVersion}; this build reads up to ${current}`,
  );
}
