/**
 * Reading a JSON request body without guessing (issue 28): the bytes must be UTF-8, the text must
 * nest at most MAX_JSON_DEPTH containers deep, and no object may have a key twice. JSON.parse
 * alone would replace invalid bytes with U+FFFD, keep the last of two equal keys and accept any
 * depth, which then overflowed the stack of code that walks the value. It also keeps the text of
 * each number member of a top-level object as written (numberAsWritten), which JSON.parse loses:
 * 10.500 and 10.049999999999999999 would otherwise reach a handler as 10.5 and 10.05. No Fastify,
 * no Nest.
 */

/** Containers (objects and arrays, the outermost included) a body may nest; no API body needs more than 3. */
export const MAX_JSON_DEPTH = 32;

export type JsonBodyProblem =
  | { kind: 'charset'; charset: string }
  | { kind: 'not_utf8' }
  | { kind: 'empty' }
  | { kind: 'too_deep' }
  | { kind: 'duplicate_key'; key: string }
  | { kind: 'forbidden_key'; key: string }
  | { kind: 'not_json' };

export type JsonBody = { ok: true; value: unknown } | { ok: false; problem: JsonBodyProblem };

/**
 * Keys that reach an object's prototype when a parsed body is copied or merged (the keys Fastify's
 * own parser refused); no API field has either name. Compared directly: a Set look-up would hash
 * every key of every body.
 */
const isForbiddenKey = (key: string): boolean => key === '__proto__' || key === 'constructor';

// Fatal: invalid bytes throw instead of becoming U+FFFD. A leading byte order mark is dropped
// (ignoreBOM false), which RFC 8259 allows a parser to do; it changes no value. Stateless when not
// streaming, so one decoder serves every request.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const SPACE = 0x20;
const TAB = 0x09;
const MINUS = 0x2d;
const PLUS = 0x2b;
const POINT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

const refused = (problem: JsonBodyProblem): JsonBody => ({ ok: false, problem });

/** A body sent as `Content-Type: <contentType>` (already matched to application/json). */
export function readJsonBody(bytes: Uint8Array, contentType?: string): JsonBody {
  const charset = contentType === undefined ? undefined : declaredCharset(contentType);
  if (charset !== undefined && charset !== 'utf-8') return refused({ kind: 'charset', charset });
  if (bytes.length === 0) return refused({ kind: 'empty' });
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return refused({ kind: 'not_utf8' });
  }
  return parseStrictJson(text);
}

/**
 * The number members of each top-level object parseStrictJson read, name to text as written.
 * Beside the value rather than in it: the value stays exactly what JSON.parse made, and the entry
 * goes with the body.
 */
const WRITTEN_NUMBERS = new WeakMap<object, ReadonlyMap<string, string>>();

/**
 * The text of `body[name]` as the JSON wrote it ("10.500", "1e2"), when `body` is a top-level
 * object parseStrictJson read and that member is a number; undefined otherwise. For a rule that
 * judges a number as written rather than as the float JSON.parse rounded it to.
 */
export function numberAsWritten(body: unknown, name: string): string | undefined {
  return typeof body === 'object' && body !== null ? WRITTEN_NUMBERS.get(body)?.get(name) : undefined;
}

/** JSON.parse, after a scan that refuses too deep a text, a repeated key and a forbidden key. */
export function parseStrictJson(text: string): JsonBody {
  const numbers: [string, string][] = [];
  const problem = scan(text, numbers);
  if (problem) return refused(problem);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return refused({ kind: 'not_json' });
  }
  // JSON.parse accepted the text, so each recorded text is exactly that member's number token.
  if (numbers.length > 0 && typeof value === 'object' && value !== null) {
    WRITTEN_NUMBERS.set(value, new Map(numbers));
  }
  return { ok: true, value };
}

/**
 * One pass over the text, no recursion and no regular expression: it tracks only which
 * containers are open (an object's keys so far, or null for an array) and whether the next string
 * is a key. It does not check the grammar (JSON.parse does, next); on a text that is not JSON it
 * may report another problem first, which is a refusal all the same. Into `numbers` go the name
 * and text of each number member of a top-level object: outside strings, a number is the only
 * value that starts with '-' or a digit.
 */
function scan(text: string, numbers: [string, string][]): JsonBodyProblem | undefined {
  const open: (Keys | null)[] = [];
  let expectingKey = false;
  // The last key read in a top-level object: the member a number at that level belongs to.
  let topKey = '';
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (end === -1) return { kind: 'not_json' };
      const keys = expectingKey ? open[open.length - 1] : undefined;
      if (keys) {
        expectingKey = false;
        const raw = text.slice(i + 1, end);
        // Keys are compared as JSON.parse will read them: "\u0061" is "a".
        const key = raw.includes('\\') ? unescaped(text.slice(i, end + 1)) : raw;
        if (key === undefined) return { kind: 'not_json' };
        if (isForbiddenKey(key)) return { kind: 'forbidden_key', key };
        if (!keys.addNew(key)) return { kind: 'duplicate_key', key };
        if (open.length === 1) topKey = key;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (open.length === MAX_JSON_DEPTH) return { kind: 'too_deep' };
      expectingKey = c === OPEN_OBJECT;
      open.push(expectingKey ? new Keys() : null);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
      expectingKey = false;
    } else if (c === COMMA) {
      expectingKey = Boolean(open[open.length - 1]);
    } else if (open.length === 1 && open[0] !== null && (c === MINUS || isDigit(c))) {
      let end = i + 1;
      while (end < length && isNumberCharacter(text.charCodeAt(end))) end += 1;
      numbers.push([topKey, text.slice(i, end)]);
      i = end - 1;
    }
  }
  return undefined;
}

function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}

/** A character a JSON number token may hold after its first. */
function isNumberCharacter(c: number): boolean {
  return isDigit(c) || c === POINT || c === LOWER_E || c === UPPER_E || c === PLUS || c === MINUS;
}

/**
 * The keys of one object so far. A short list compared one by one while small (an API body has a
 * handful, and a Set costs more to build than to search for so few); a Set past SMALL_OBJECT_KEYS,
 * so that an object with thousands of keys is still checked in linear time.
 */
class Keys {
  private static readonly SMALL_OBJECT_KEYS = 16;
  private list: string[] | undefined = [];
  private set: Set<string> | undefined;

  /** Adds `key`; false when the object already has it. */
  addNew(key: string): boolean {
    if (this.list) {
      if (this.list.includes(key)) return false;
      this.list.push(key);
      if (this.list.length > Keys.SMALL_OBJECT_KEYS) {
        this.set = new Set(this.list);
        this.list = undefined;
      }
      return true;
    }
    const set = this.set!;
    if (set.has(key)) return false;
    set.add(key);
    return true;
  }
}

/**
 * The index of the quote that ends the string opening at `start`, or -1. Jumps from quote to quote
 * (indexOf) and counts the backslashes just before each: an odd number escapes it. Each backslash
 * is counted once at most, so the whole scan stays linear.
 */
function closingQuote(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/** The value of a JSON string literal (quotes included), or undefined when it is not one. */
function unescaped(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

/**
 * The charset parameter of a Content-Type value, lower-cased and unquoted, or undefined without
 * one. With several charset parameters, the first that is not utf-8, so that any foreign one
 * refuses the body. Quoted values are read as RFC 9110 writes them (a `;` inside quotes ends
 * nothing); an unterminated quote is kept, so such a value is never taken for utf-8.
 */
export function declaredCharset(contentType: string): string | undefined {
  const length = contentType.length;
  let found: string | undefined;
  // The media type itself holds no quote, so the first ';' starts the parameters.
  let at = contentType.indexOf(';');
  while (at !== -1) {
    let equals = at + 1;
    while (equals < length && !isOneOf(contentType.charCodeAt(equals), EQUALS, SEMICOLON)) equals += 1;
    if (equals >= length) break;
    if (contentType.charCodeAt(equals) === SEMICOLON) {
      at = equals; // a parameter without a value
      continue;
    }
    const name = contentType
      .slice(at + 1, equals)
      .trim()
      .toLowerCase();
    let start = equals + 1;
    while (start < length && isOneOf(contentType.charCodeAt(start), SPACE, TAB)) start += 1;
    let value: string;
    if (contentType.charCodeAt(start) === QUOTE) {
      const quoted = readQuoted(contentType, start);
      value = quoted.value;
      at = contentType.indexOf(';', quoted.end);
    } else {
      at = contentType.indexOf(';', start);
      value = contentType.slice(start, at === -1 ? length : at).trim();
    }
    if (name === 'charset' && (found === undefined || found === 'utf-8')) found = value.toLowerCase();
  }
  return found;
}

/** A quoted-string starting at `start` (its opening quote): its value and the index after it. */
function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return { value, end: i + 1 };
    if (c === BACKSLASH && i + 1 < text.length) i += 1;
    value += text[i];
  }
  return { value: `"${value}`, end: text.length };
}

function isOneOf(c: number, a: number, b: number): boolean {
  return c === a || c === b;
}
