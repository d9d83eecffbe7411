import {
  declaredCharset,
  MAX_JSON_DEPTH,
  numberAsWritten,
  parseStrictJson,
  readJsonBody,
} from './strict-json';

const bytes = (text: string) => new TextEncoder().encode(text);
const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('parseStrictJson', () => {
  it.each([
    ['an object', '{"amount":"10.00","delivery":"link","n":-1.5e3,"ok":true,"none":null}'],
    ['an array of mixed values', '[1,"two",{"three":[3]},[],{},false]'],
    ['white space everywhere JSON allows it', ' \t\r\n{ "a" : [ 1 , 2 ] , "b" : { } } \n'],
    ['escapes in keys and values', '{"a\\"b":"\\u00e9\\n","c\\\\":"[{\\"d\\":1}]"}'],
    ['a top-level string', '"just text"'],
    ['a top-level number', '42'],
  ])('reads %s as JSON.parse does', (_name, text) => {
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it(`accepts nesting ${MAX_JSON_DEPTH} deep and refuses ${MAX_JSON_DEPTH + 1}, counting objects and arrays alike`, () => {
    expect(parseStrictJson(arrays(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(parseStrictJson(`{"a":${arrays(MAX_JSON_DEPTH - 1)}}`).ok).toBe(true);
    expect(parseStrictJson(arrays(MAX_JSON_DEPTH + 1))).toEqual({ ok: false, problem: { kind: 'too_deep' } });
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}`;
    expect(parseStrictJson(objects).ok).toBe(true);
    expect(parseStrictJson(`[${objects}]`)).toEqual({ ok: false, problem: { kind: 'too_deep' } });
  });

  it('refuses nesting 100,000 deep without recursing, even when the text is not finished', () => {
    expect(parseStrictJson(arrays(100_000))).toEqual({ ok: false, problem: { kind: 'too_deep' } });
    expect(parseStrictJson('['.repeat(100_000))).toEqual({ ok: false, problem: { kind: 'too_deep' } });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = `{"a":"${'['.repeat(40)}","b\\"[[":"\\"${'{'.repeat(40)}"}`;
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it.each([
    ['at the top level', '{"amount":"6000.00","amount":"10.00"}', 'amount'],
    ['in a nested object', '{"a":{"b":1,"c":2,"b":3}}', 'b'],
    ['in an object inside an array', '{"list":[{"x":1},{"y":1,"y":2}]}', 'y'],
    ['spelt with a \\u escape', '{"amount":"1.00","\\u0061mount":"2.00"}', 'amount'],
    ['spelt with an escaped solidus', '{"a/b":1,"a\\/b":2}', 'a/b'],
    ['that is empty', '{"":1,"":2}', ''],
  ])('refuses a duplicate key %s, naming it', (_name, text, key) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, problem: { kind: 'duplicate_key', key } });
  });

  it('finds a duplicate among thousands of keys, early or late, and accepts them all distinct', () => {
    const members = Array.from({ length: 5_000 }, (_, i) => `"k${i}":${i}`);
    expect(parseStrictJson(`{${members.join(',')}}`).ok).toBe(true);
    expect(parseStrictJson(`{${[...members, '"k3":0'].join(',')}}`)).toEqual({
      ok: false,
      problem: { kind: 'duplicate_key', key: 'k3' },
    });
    expect(parseStrictJson(`{${[...members, '"k4999":0'].join(',')}}`)).toEqual({
      ok: false,
      problem: { kind: 'duplicate_key', key: 'k4999' },
    });
  });

  it('accepts the same key in different objects, and values equal to keys', () => {
    const text = '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":"a","d":"a"}';
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it.each([
    ['__proto__', '{"a":1,"__proto__":{"admin":true}}'],
    ['__proto__', '{"a":[{"\\u005f_proto__":{}}]}'],
    ['constructor', '{"constructor":{"prototype":{"admin":true}}}'],
  ])('refuses the key %s, which would reach an object prototype when copied', (key, text) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, problem: { kind: 'forbidden_key', key } });
  });

  it.each([
    ['an unfinished object', '{"amount":'],
    ['a missing colon', '{"a" 1}'],
    ['a trailing comma', '{"a":1,}'],
    ['text after the value', '{"a":1} x'],
    ['an unterminated string', '{"a":"b'],
    ['an unterminated key', '{"a'],
    ['an invalid escape in a key', '{"\\x":1}'],
    ['a raw control character in a string', '{"a":"b\u0001"}'],
    ['a closing bracket of the wrong kind', '{"a":[1}]'],
    ['only white space', '  '],
  ])('refuses %s as not JSON', (_name, text) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, problem: { kind: 'not_json' } });
  });
});

describe('numberAsWritten', () => {
  const written = (text: string, key: string) => {
    const read = parseStrictJson(text);
    if (!read.ok) throw new Error(`not JSON: ${text}`);
    return numberAsWritten(read.value, key);
  };

  it.each([
    ['10.500', '{"amount":10.500}'],
    ['10.049999999999999999', '{"amount":10.049999999999999999,"currency":"USD"}'],
    ['0.4999999999999999999', '{"currency":"USD","amount":0.4999999999999999999}'],
    ['1e2', '{"amount":1e2}'],
    ['1E+2', '{ "amount" : 1E+2 }'],
    ['-0', '{"amount":-0}'],
    ['-1.5e-3', '{"amount":\n\t-1.5e-3\n}'],
    ['100000', '{"a":{"amount":1},"amount":100000,"b":[2]}'],
    ['7', '{"\u0061mount":7}'],
  ])('keeps %s, as the text wrote it, for a member of a top-level object', (expected, text) => {
    expect(written(text, 'amount')).toBe(expected);
    // The value itself is JSON.parse's, untouched.
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('keeps nothing for a member that is not a number, a nested number, or a name not in the body', () => {
    const text = '{"amount":"10.500","nested":{"n":1.50},"list":[2.50],"yes":true,"none":null}';
    for (const key of ['amount', 'nested', 'n', 'list', 'yes', 'none', 'missing']) {
      expect(written(text, key)).toBeUndefined();
    }
  });

  it('keeps nothing for a value that is not an object read by parseStrictJson', () => {
    expect(numberAsWritten(JSON.parse('{"amount":10.500}'), 'amount')).toBeUndefined();
    expect(numberAsWritten({ amount: 10.5 }, 'amount')).toBeUndefined();
    expect(numberAsWritten(undefined, 'amount')).toBeUndefined();
    expect(numberAsWritten('10.500', 'amount')).toBeUndefined();
    const top = parseStrictJson('[10.500]');
    expect(top.ok && numberAsWritten(top.value, '0')).toBeUndefined();
  });

  it('keeps each body its own numbers', () => {
    const first = parseStrictJson('{"amount":1.0}');
    const second = parseStrictJson('{"amount":1.00}');
    expect(first.ok && numberAsWritten(first.value, 'amount')).toBe('1.0');
    expect(second.ok && numberAsWritten(second.value, 'amount')).toBe('1.00');
  });
});

describe('readJsonBody', () => {
  const body = '{"merchant_reference":"inv-é-1"}';

  it('reads UTF-8 bytes, with or without a leading byte order mark', () => {
    const expected = { ok: true, value: { merchant_reference: 'inv-é-1' } };
    expect(readJsonBody(bytes(body), 'application/json')).toEqual(expected);
    expect(readJsonBody(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(body)]), 'application/json')).toEqual(
      expected,
    );
  });

  it.each([
    ['a broken sequence (C3 28 FF)', [0xc3, 0x28, 0xff]],
    ['an overlong encoding of "/" (C0 AF)', [0xc0, 0xaf]],
    ['an encoded UTF-16 surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['a sequence cut short at the end', [0xe2, 0x82]],
  ])('refuses %s instead of replacing it with U+FFFD', (_name, sequence) => {
    const text = new Uint8Array([...bytes('{"merchant_reference":"a'), ...sequence, ...bytes('"}')]);
    expect(readJsonBody(text, 'application/json')).toEqual({ ok: false, problem: { kind: 'not_utf8' } });
  });

  it('refuses an empty body', () => {
    expect(readJsonBody(new Uint8Array(0), 'application/json')).toEqual({
      ok: false,
      problem: { kind: 'empty' },
    });
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'Application/JSON; Charset=Utf-8; profile=x',
  ])('accepts Content-Type %s', (contentType) => {
    expect(readJsonBody(bytes(body), contentType).ok).toBe(true);
  });

  it.each([
    ['application/json; charset=iso-8859-1', 'iso-8859-1'],
    ['application/json; charset="utf-16"', 'utf-16'],
    ['application/json; charset=utf8', 'utf8'],
    ['application/json; charset=', ''],
    ['application/json; charset=utf-8; charset=latin1', 'latin1'],
  ])('refuses Content-Type %s as a charset other than UTF-8', (contentType, charset) => {
    expect(readJsonBody(bytes(body), contentType)).toEqual({
      ok: false,
      problem: { kind: 'charset', charset },
    });
  });
});

describe('declaredCharset', () => {
  it.each([
    ['application/json', undefined],
    ['application/json;', undefined],
    ['application/json; charset=UTF-8', 'utf-8'],
    ['application/json ; CHARSET = "utf-8" ', 'utf-8'],
    ['application/json; a="x;charset=latin1"; charset=utf-8', 'utf-8'],
    ['application/json; a="x\\"; charset=latin1"', undefined],
    ['application/json; flag; charset=utf-8', 'utf-8'],
    ['application/json; charset="utf-8', '"utf-8'],
    ['application/json; charset=utf-8; charset=latin1', 'latin1'],
  ])('reads %s as %s', (contentType, charset) => {
    expect(declaredCharset(contentType)).toBe(charset);
  });
});
