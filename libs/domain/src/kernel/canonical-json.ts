/**
 * The canonical JSON of a JSON value: its one text, whatever order its object keys were written
 * in. Object keys are sorted by UTF-16 code unit (JavaScript's default sort, as in RFC 8785), an
 * object member whose value is undefined is left out, and there is no whitespace; strings,
 * numbers, booleans and null are written as JSON.stringify writes them.
 *
 * Two hashes are made of this text, and both are stored: the audit's chain links (docs/audit.md:
 * the canonical JSON of each event's data and metadata) and the idempotency request hash (each
 * key's `{ body, method, path }`). Neither may ever change for a value it has already hashed. Both
 * hand it values JSON.parse made (jsonb read back, a request body) or built from such values.
 *
 * A value JSON.parse could not have made is refused with a TypeError instead of given a text, so
 * nothing is hashed as a text that does not read back as it: undefined (other than an object
 * member's), a function, a symbol, a BigInt, a number that is not finite, an object with a
 * toJSON method (a Date), and a cycle.
 *
 * Iterative, with an explicit stack: a request body is the client's, and its depth must not
 * decide whether it can be hashed. The audit writes it for every event of the log, so it
 * allocates little: most objects' few keys are sorted in place, a written key is reused, and
 * the set of containers on the path (for cycles) is made only for a container inside another.
 */
export function canonicalJson(value: unknown): string {
  const open: Open[] = [];
  // The containers open, once one is opened inside another: meeting one of them again is a cycle.
  let ancestors: Set<object> | null = null;
  let out = '';
  let item = value;
  for (;;) {
    // Write the item: a scalar whole, a container's opening bracket (its items come next).
    if (typeof item !== 'object' || item === null) out += scalar(item);
    else {
      if (typeof (item as { toJSON?: unknown }).toJSON === 'function') {
        throw new TypeError('canonicalJson: a value with toJSON (a Date?) is not a JSON value');
      }
      if (open.length > 0) {
        ancestors ??= new Set(open.map((frame) => frame.container));
        if (ancestors.has(item)) throw new TypeError('canonicalJson: a cyclic value has no JSON form');
        ancestors.add(item);
      }
      if (Array.isArray(item)) {
        out += '[';
        open.push({ container: item, keys: null, next: 0, wrote: false });
      } else {
        out += '{';
        open.push({ container: item, keys: sortedKeys(item), next: 0, wrote: false });
      }
    }
    // The next item to write, closing every container that has none left.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) return out;
      if (top.keys === null) {
        const items = top.container as readonly unknown[];
        if (top.next < items.length) {
          if (top.next > 0) out += ',';
          item = items[top.next++];
          break;
        }
        out += ']';
      } else {
        const record = top.container as Readonly<Record<string, unknown>>;
        const keys = top.keys;
        while (top.next < keys.length && record[keys[top.next]!] === undefined) top.next += 1;
        if (top.next < keys.length) {
          const key = keys[top.next]!;
          // Past the first member written, every member follows a comma.
          out += top.wrote ? `,${writtenKey(key)}` : writtenKey(key);
          top.wrote = true;
          top.next += 1;
          item = record[key];
          break;
        }
        out += '}';
      }
      ancestors?.delete(top.container);
      open.pop();
    }
  }
}

/** A container being written: an array (no keys) or an object's sorted keys, and the next to write. */
interface Open {
  container: object;
  keys: string[] | null;
  next: number;
  /** Whether a member was written yet (members left out need no comma). */
  wrote: boolean;
}

function scalar(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isFinite(value)) return JSON.stringify(value);
      throw new TypeError(`canonicalJson: ${value} is not a JSON number`);
    case 'object':
      return 'null';
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

/** An object's own keys in UTF-16 code unit order, as Array.prototype.sort orders strings. */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > 16) return keys.sort();
  // Insertion sort in place: the built-in sort allocates a work area on every call.
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j -= 1) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * `"key":` as written before: the log's objects share a few dozen keys. Bounded in entries and key
 * length, so whatever keys a process meets (a client's too), it stays small.
 */
const WRITTEN_KEYS = new Map<string, string>();

function writtenKey(key: string): string {
  let written = WRITTEN_KEYS.get(key);
  if (written === undefined) {
    written = `${JSON.stringify(key)}:`;
    if (WRITTEN_KEYS.size < 1_000 && key.length <= 64) WRITTEN_KEYS.set(key, written);
  }
  return written;
}
