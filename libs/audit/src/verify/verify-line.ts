/**
 * The line of verify's read (verify-feed.ts): every column of an event but the three free-text
 * ones, joined by tabs in the database. None of them can hold a tab (numbers, a uuid, a formatted
 * time, and JSON text as jsonb writes it, which escapes a tab inside a string), so the first seven
 * tabs are exactly the separators. Used by both of verify's threads.
 */
/** A row's line taken apart: everything but the three free-text columns, as text. */
export interface VerifyLine {
  position: string;
  transactionId: string;
  eventId: string;
  streamVersion: number;
  schemaVersion: number;
  recordedAt: string;
  /** JSON text, as jsonb writes it. */
  metadata: string;
  /** JSON text, as jsonb writes it. */
  data: string;
}

export function splitLine(line: string): VerifyLine {
  const t1 = nextTab(line, 0);
  const t2 = nextTab(line, t1 + 1);
  const t3 = nextTab(line, t2 + 1);
  const t4 = nextTab(line, t3 + 1);
  const t5 = nextTab(line, t4 + 1);
  const t6 = nextTab(line, t5 + 1);
  const t7 = nextTab(line, t6 + 1);
  return {
    position: line.slice(0, t1),
    transactionId: line.slice(t1 + 1, t2),
    eventId: line.slice(t2 + 1, t3),
    streamVersion: Number(line.slice(t3 + 1, t4)),
    schemaVersion: Number(line.slice(t4 + 1, t5)),
    recordedAt: line.slice(t5 + 1, t6),
    metadata: line.slice(t6 + 1, t7),
    data: line.slice(t7 + 1),
  };
}

function nextTab(line: string, from: number): number {
  const at = line.indexOf('\t', from);
  if (at < 0) throw new Error(`not a verify line (too few tabs): ${line.slice(0, 80)}`);
  return at;
}
