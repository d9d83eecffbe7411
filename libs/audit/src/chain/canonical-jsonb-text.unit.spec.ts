import { canonicalJson } from './canonical-json';
import { canonicalJsonbText } from './canonical-jsonb-text';

/** What the link hashes today: the value parsed, then written with sorted keys. */
const parsedThenCanonical = (text: string) => canonicalJson(JSON.parse(text));

describe("canonical JSON read off jsonb's text", () => {
  it('sorts keys by UTF-16 code units (jsonb orders by length first) and drops the spaces', () => {
    const text =
      '{"at": "2026-01-16T06:04:39.936Z", "fee": "0.50", "total": "20.30", "amount": "19.80", "payoutId": "po_1", "customerKey": "customer:cust_353"}';
    expect(canonicalJsonbText(text)).toBe(
      '{"amount":"19.80","at":"2026-01-16T06:04:39.936Z","customerKey":"customer:cust_353","fee":"0.50","payoutId":"po_1","total":"20.30"}',
    );
    expect(canonicalJsonbText(text)).toBe(parsedThenCanonical(text));
  });

  it.each([
    [
      'nested objects and arrays',
      '{"a": [1, 2, {"z": null, "b": true}], "b": -5, "c": {"y": false, "x": []}}',
    ],
    ['a key that sorts before its prefix only as text', '{"a": 2, "a b": 1, "a!": 3, "ab": 4}'],
    ['keys that look like array indices, and __proto__', '{"9": 2, "10": 1, "__proto__": {"b": 1, "a": 2}}'],
    ['non-ASCII and astral characters', '{"é": "ü", "z": "😀 ☃", "😀": 1, "\uffff": 2}'],
    ['empty containers and strings', '{"": "", "a": {}, "b": []}'],
    ['integers up to 15 digits, and 0', '{"a": 0, "b": -7, "c": 999999999999999, "d": -123456789012345}'],
    ['a bare value', '[1, "x", null]'],
  ])('agrees with parsing, for %s', (_, text) => {
    expect(canonicalJsonbText(text)).not.toBeNull();
    expect(canonicalJsonbText(text)).toBe(parsedThenCanonical(text));
  });

  it.each([
    ['a backslash anywhere (an escape)', '{"a": "x\\"y"}'],
    ['an escaped key', '{"a\\tb": 1}'],
    ['a decimal (JSON.stringify writes 1.5 for 1.50)', '{"a": 1.50}'],
    ['-0 (it reads back as 0)', '{"a": -0}'],
    ['an exponent', '{"a": 1e5}'],
    ['an integer of 16 digits', '{"a": 1234567890123456}'],
    ['a leading zero', '{"a": 01}'],
    ['text after the value', '{"a": 1} x'],
    ['an unfinished value', '{"a": "x'],
    ['something that is not JSON', 'nope'],
  ])('leaves the text to the parser for %s', (_, text) => {
    expect(canonicalJsonbText(text)).toBeNull();
  });
});
