import { csvField, csvHeader, csvRecord, csvRow, neutralizeFormula } from './csv-text';

describe('CSV text', () => {
  it('quotes only fields with a quote, comma or line break, doubling the quotes (RFC 4180)', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\ronly')).toBe('"cr\ronly"');
    expect(csvField('')).toBe('');
  });

  it('writes null and undefined as empty fields and numbers as they print', () => {
    expect(csvRecord(['a', null, undefined, 1000001, ''])).toBe('a,,,1000001,\r\n');
  });

  it('ends every record, the last too, with CRLF', () => {
    const columns = [
      { header: 'id', cell: (r: { id: string; n: string }) => r.id },
      { header: 'net', cell: (r: { id: string; n: string }) => r.n },
    ];
    expect(csvHeader(columns) + csvRow(columns, { id: 'x', n: '1.00' })).toBe('id,net\r\nx,1.00\r\n');
  });

  it.each([
    ['=HYPERLINK("https://evil.example","x")', `'=HYPERLINK("https://evil.example","x")`],
    ['+1+2', "'+1+2"],
    ['-1+2', "'-1+2"],
    ['-', "'-"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
    ['+3.20', "'+3.20"],
  ])('prefixes a cell a spreadsheet would run as a formula: %j', (cell, shown) => {
    expect(neutralizeFormula(cell)).toBe(shown);
  });

  it('leaves plain decimals, negative ones too, and text with a formula character later on', () => {
    for (const cell of ['-3.20', '0.00', '12', '-12', 'a=b', 'Payout po_1 paid', ' =1']) {
      expect(neutralizeFormula(cell)).toBe(cell);
    }
  });

  it('neutralizes before quoting, so the prefix lands inside the quotes', () => {
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
    expect(csvField('-"x"\n')).toBe(`"'-""x""\n"`);
  });
});
