/**
 * canonicalJson(JSON.parse(text)) for the text PostgreSQL writes for a jsonb value, read off the
 * text instead of parsing it, or null when the text holds anything this reader leaves to the
 * parser. verify's chain thread links every event of the log, and parsing each event's data only
 * to write it again with sorted keys was about half of that thread's work (docs/performance.md).
 *
 * It takes objects, arrays, true, false, null, strings without a backslash, and integers of at
 * most 15 digits other than -0. For those the text is already canonical token by token: jsonb
 * writes a string's characters as they are except `"`, `\` and control characters, which it
 * escapes (so a string without a backslash is exactly what JSON.stringify writes for it), and such
 * an integer is what JSON.stringify writes for the number JSON.parse reads. What is left is to drop
 * jsonb's spaces and to order each object's keys by UTF-16 code units (jsonb orders them by length
 * first). Anything else (a backslash anywhere, a decimal, an exponent, a longer integer) is null.
 */
export function canonicalJsonbText(text: string): string | null {
  if (text.includes('\\')) return null;
  const reader = new JsonbReader(text);
  const value = reader.value();
  return value !== null && reader.atEnd() ? value : null;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** Integers JSON.stringify writes back digit for digit: within 2^53 with room to spare. */
const MAX_INTEGER_DIGITS = 15;

interface Field {
  /** The key's characters, without its quotes: what the order compares. */
  key: string;
  /** `"key":value`, canonical. */
  text: string;
}

const byKey = (a: Field, b: Field): number => (a.key < b.key ? -1 : 1);

class JsonbReader {
  private at = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at === this.text.length;
  }

  value(): string | null {
    switch (this.text.charCodeAt(this.at)) {
      case OPEN_BRACE:
        return this.object();
      case OPEN_BRACKET:
        return this.array();
      case QUOTE:
        return this.string();
      default:
        return this.word('true') ?? this.word('false') ?? this.word('null') ?? this.integer();
    }
  }

  private object(): string | null {
    this.at += 1;
    if (this.take(CLOSE_BRACE)) return '{}';
    const fields: Field[] = [];
    for (;;) {
      const key = this.string();
      if (key === null || !this.take(COLON)) return null;
      this.skipSpaces();
      const value = this.value();
      if (value === null) return null;
      fields.push({ key: key.slice(1, -1), text: `${key}:${value}` });
      if (this.take(CLOSE_BRACE)) break;
      if (!this.take(COMMA)) return null;
      this.skipSpaces();
    }
    if (fields.length > 1) fields.sort(byKey);
    let out = '{';
    for (let i = 0; i < fields.length; i += 1) out += i === 0 ? fields[i]!.text : `,${fields[i]!.text}`;
    return `${out}}`;
  }

  private array(): string | null {
    this.at += 1;
    if (this.take(CLOSE_BRACKET)) return '[]';
    let out = '[';
    for (;;) {
      const value = this.value();
      if (value === null) return null;
      out += value;
      if (this.take(CLOSE_BRACKET)) return `${out}]`;
      if (!this.take(COMMA)) return null;
      out += ',';
      this.skipSpaces();
    }
  }

  /** A string token with its quotes, as it stands (the caller refused every backslash). */
  private string(): string | null {
    if (this.text.charCodeAt(this.at) !== QUOTE) return null;
    const end = this.text.indexOf('"', this.at + 1);
    if (end < 0) return null;
    const token = this.text.slice(this.at, end + 1);
    this.at = end + 1;
    return token;
  }

  private word(word: string): string | null {
    if (!this.text.startsWith(word, this.at)) return null;
    this.at += word.length;
    return word;
  }

  private integer(): string | null {
    const start = this.at;
    if (this.text.charCodeAt(this.at) === MINUS) this.at += 1;
    const digits = this.at;
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at);
      if (c < ZERO || c > NINE) break;
      this.at += 1;
    }
    const count = this.at - digits;
    if (count === 0 || count > MAX_INTEGER_DIGITS) return null;
    // A leading zero is 0 itself (jsonb writes no other), and -0 reads back as 0.
    if (this.text.charCodeAt(digits) === ZERO && (count > 1 || digits > start)) return null;
    const next = this.text.charCodeAt(this.at);
    if (next === 0x2e || next === 0x65 || next === 0x45) return null; // . e E: not an integer
    return this.text.slice(start, this.at);
  }

  private take(code: number): boolean {
    if (this.text.charCodeAt(this.at) !== code) return false;
    this.at += 1;
    return true;
  }

  private skipSpaces(): void {
    while (this.text.charCodeAt(this.at) === SPACE) this.at += 1;
  }
}
