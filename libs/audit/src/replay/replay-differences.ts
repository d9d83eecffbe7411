/**
 * What a replay can find: a read-model row whose value differs from what the log implies, a row
 * the log implies but the live table lacks, or a live row the log does not account for.
 */
export type ReplayDifference =
  | {
      kind: 'changed';
      table: string;
      key: string[];
      column: string;
      live: string | null;
      replayed: string | null;
    }
  | { kind: 'missing'; table: string; key: string[] }
  | { kind: 'extra'; table: string; key: string[] };

export type ReportDifference = (difference: ReplayDifference) => void;

/**
 * One line: `difference <table> key=<JSON array> …`. Values are JSON strings (or null) as the
 * database writes them as text, so a value with spaces stays one field.
 */
export function formatDifference(difference: ReplayDifference): string {
  const head = `difference ${difference.table} key=${JSON.stringify(difference.key)}`;
  switch (difference.kind) {
    case 'changed':
      return `${head} column=${difference.column} live=${JSON.stringify(difference.live)} replayed=${JSON.stringify(difference.replayed)}`;
    case 'missing':
      return `${head} missing: the replay has this row, the live table does not`;
    case 'extra':
      return `${head} extra: the live table has this row, the replay does not`;
  }
}
