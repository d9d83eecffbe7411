/** Payout ids are made by the service (`po_` + 24 hex digits); anything else names no payout. */
export const PAYOUT_ID = /^po_[0-9a-f]{24}$/;
