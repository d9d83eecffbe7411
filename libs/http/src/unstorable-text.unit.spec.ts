import { unstorableTextRefusal } from './unstorable-text';

/** `{ [name]: [[[ ... inner ... ]]] }` with `depth` arrays around `inner`. */
function nestedIn(name: string, depth: number, inner: unknown): Record<string, unknown> {
  let value: unknown = inner;
  for (let i = 0; i < depth; i += 1) value = [value];
  return { [name]: value };
}

describe('unstorableTextRefusal', () => {
  it('names the top-level field under which a NUL or an unpaired surrogate sits, at any depth', () => {
    expect(unstorableTextRefusal(nestedIn('origins', 3, 'a\u0000b'), 'field')).toMatchObject({
      status: 400,
      code: 'invalid_request',
      param: 'origins',
    });
    expect(unstorableTextRefusal({ meta: { list: [{ 'key\ud800': 1 }] } }, 'field')?.param).toBe('meta');
  });

  it('accepts text that can be stored', () => {
    expect(
      unstorableTextRefusal({ a: ['é', { b: 'ok \ud83d\ude00' }], n: 1, z: null }, 'field'),
    ).toBeUndefined();
  });

  it('walks a value nested 100,000 deep without running out of stack', () => {
    expect(unstorableTextRefusal(nestedIn('deep', 100_000, 'fine'), 'field')).toBeUndefined();
    expect(unstorableTextRefusal(nestedIn('deep', 100_000, '\u0000'), 'field')?.param).toBe('deep');
  });

  it('ends on a value that refers to itself', () => {
    const cyclic: Record<string, unknown> = { text: 'fine' };
    cyclic.self = cyclic;
    expect(unstorableTextRefusal({ body: cyclic }, 'field')).toBeUndefined();
  });
});
