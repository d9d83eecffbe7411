import { randomUUID } from 'node:crypto';

/** A caller's own request id is kept when it is short and plain; otherwise we make one. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(header: string | string[] | undefined): string {
  const candidate = Array.isArray(header) ? header[0] : header;
  return candidate && ACCEPTABLE_REQUEST_ID.test(candidate) ? candidate : `req_${randomUUID()}`;
}
