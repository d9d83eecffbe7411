import { hash } from 'node:crypto';

/**
 * An Idempotency-Key (ARCHITECTURE 3): 1 to 255 visible ASCII characters (0x20-0x7E). Spaces are
 * allowed inside but not at either end, where proxies and header parsers trim them; control
 * characters and anything outside ASCII are refused.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]{0,253}[\x21-\x7E])?$/;

/** Keys (and their stored answers) are kept this long after their first use, then purged. */
export const IDEMPOTENCY_RETENTION_DAYS = 30;

/**
 * SHA-256 (hex) of the canonical JSON of `{ body, method, path }`, stored with the key so that the
 * same key sent with other inputs is detected (formance). The method is upper-cased; the body is
 * serialised as JSON.stringify would (toJSON honoured, undefined members dropped, undefined array
 * items and non-finite numbers as null, no body as null) with object keys sorted by UTF-16 code
 * unit, as in RFC 8785, so the order in which a client sent the members does not matter.
 */
export function requestHash(method: string, path: string, body: unknown): string {
  // No body hashes as a JSON null body, as it does at the top level of canonicalJson.
  const canonical = canonicalJson({ body: body ?? null, method: method.toUpperCase(), path });
  return hash('sha256', canonical, 'hex');
}

/**
 * JSON with object keys sorted; throws on cycles and BigInt, as JSON.stringify does. Iterative
 * (an explicit stack, no recursion): a body is request data, and its depth must never decide
 * whether hashing it runs out of call stack.
 */
export function canonicalJson(value: unknown): string {
  const writer = new CanonicalWriter();
  if (!writer.begin(value)) return 'null';
  const open = writer.open;
  while (open.length > 0) {
    const container = open[open.length - 1]!;
    if (container.keys === undefined) {
      const items = container.value as unknown[];
      if (container.next === items.length) {
        writer.close(']');
      } else {
        if (container.next > 0) writer.out += ',';
        // An array item JSON leaves out is written as null, as JSON.stringify does.
        if (!writer.begin(items[container.next++])) writer.out += 'null';
      }
    } else if (container.next === container.keys.length) {
      writer.close('}');
    } else {
      const key = container.keys[container.next++]!;
      const mark = writer.out.length;
      writer.out += `${container.written ? ',' : ''}${JSON.stringify(key)}:`;
      // A member JSON leaves out (undefined, a function) is dropped with its key.
      if (writer.begin((container.value as Record<string, unknown>)[key])) container.written = true;
      else writer.out = writer.out.slice(0, mark);
    }
  }
  return writer.out;
}

/** An array (no keys) or an object being written, and the next item or key to write. */
interface Container {
  value: object;
  keys: string[] | undefined;
  next: number;
  written: boolean;
}

class CanonicalWriter {
  out = '';
  readonly open: Container[] = [];
  // Objects on the path from the root to the current value: meeting one again is a cycle.
  private readonly ancestors = new Set<object>();

  /** Writes a scalar, or opens a container on `open`; false for what JSON leaves out. */
  begin(input: unknown): boolean {
    let value = input;
    if (typeof value === 'object' && value !== null && typeof (value as Jsonable).toJSON === 'function') {
      value = (value as Jsonable).toJSON();
    }
    switch (typeof value) {
      case 'string':
        this.out += JSON.stringify(value);
        return true;
      case 'number':
        this.out += Number.isFinite(value) ? JSON.stringify(value) : 'null';
        return true;
      case 'boolean':
        this.out += value ? 'true' : 'false';
        return true;
      case 'bigint':
        throw new TypeError('requestHash: a BigInt has no JSON form');
      case 'undefined':
      case 'function':
      case 'symbol':
        return false;
      case 'object': {
        if (value === null) {
          this.out += 'null';
          return true;
        }
        if (this.ancestors.has(value)) throw new TypeError('requestHash: the body is cyclic');
        this.ancestors.add(value);
        const isArray = Array.isArray(value);
        this.out += isArray ? '[' : '{';
        this.open.push({
          value,
          keys: isArray ? undefined : Object.keys(value).sort(),
          next: 0,
          written: false,
        });
        return true;
      }
    }
  }

  close(bracket: string): void {
    this.out += bracket;
    this.ancestors.delete(this.open.pop()!.value);
  }
}

interface Jsonable {
  toJSON(): unknown;
}
