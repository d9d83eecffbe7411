import { PAYOUT_ID_PATTERN_TEXT } from '../openapi/payout.schemas';

/** Payout ids are made by the service (`po_` + 24 hex digits); anything else names no payout. */
export const PAYOUT_ID = new RegExp(PAYOUT_ID_PATTERN_TEXT);
