/** The shared CSV writer and reader: RFC 4180 quoting, the spreadsheet-formula guard, and exact round trips. */
import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, guardCsvText, parseCsvRecords, toCsv, unguardCsvCell } from './csv';

describe('csvCell', () => {
  it.each([
    ['=1+1', `'=1+1`],
    ['+1', `'+1`],
    ['-2', `'-2`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    [' =1+1', `' =1+1`],
    ['  \t@x', `'  \t@x`],
    ['\t=1', `'\t=1`],
    ['\r=1', `"'\r=1"`],
    ['\n1', `"'\n1"`],
    ['\uFF1D1', `'\uFF1D1`],
    ['\uFF0B1', `'\uFF0B1`],
    ['\uFF0D1', `'\uFF0D1`],
    ['\uFF20x', `'\uFF20x`],
    [' \uFF1D1', `' \uFF1D1`],
    // Already guarded text gets one more apostrophe, so reading it back gives exactly this text.
    [`'=1`, `''=1`],
  ])('guards %j as %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('leaves plain values as they are', () => {
    for (const v of ['plain', 'a/b/c', 'mobile/apps', 'x-y', 'a=b', 'user@example.com', "it's", '1-2', '', '’='])
      expect(csvCell(v)).toBe(v);
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(-2)).toBe('-2'); // a number is never a formula
    expect(csvCell(true)).toBe('true');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('quotes per RFC 4180', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(' lead')).toBe('" lead"');
    expect(csvCell('trail ')).toBe('"trail "');
  });

  it('writes records and files with CRLF line ends', () => {
    expect(csvRow(['a', 'b,c', null, 1])).toBe('a,"b,c",,1\r\n');
    expect(
      toCsv(
        ['x', 'y'],
        [
          ['1', '=2'],
          ['3', '4'],
        ],
      ),
    ).toBe(`x,y\r\n1,'=2\r\n3,4\r\n`);
    expect(toCsv(['x'], [])).toBe('x\r\n');
  });
});

describe('parseCsvRecords', () => {
  it('reads quoted cells, doubled quotes, newlines in quotes and every line end, skipping blank records', () => {
    expect(parseCsvRecords('a,"b,""c"""\r\n"x\ny",z\n\nlast,\rq')).toEqual([
      ['a', 'b,"c"'],
      ['x\ny', 'z'],
      ['last', ''],
      ['q'],
    ]);
  });

  it('removes the guard only when asked, and only in front of a guarded start', () => {
    expect(parseCsvRecords(`'=1,'x`)).toEqual([[`'=1`, `'x`]]);
    expect(parseCsvRecords(`'=1,'x,''@y,' =2,'\uFF0B3`, { unguard: true })).toEqual([
      ['=1', `'x`, `'@y`, ' =2', '\uFF0B3'],
    ]);
    expect(unguardCsvCell(`'it's`)).toBe(`'it's`);
    expect(unguardCsvCell(`'-`)).toBe('-');
  });

  it('round-trips writer → parser → unguard to the same values', () => {
    const rows = [
      ['=1+1', ' =1+1', '\t=1', '\uFF1D1', '-2', '@SUM(A1)', '+3'],
      [`'=x`, `''-y`, "it's", 'a,b', 'say "hi"', 'two\r\nlines', ' spaced '],
      ['plain', 'a/b', '', 'x', '\r=cr', '\n', '\uFF20z'],
    ];
    const text = toCsv(['a', 'b', 'c', 'd', 'e', 'f', 'g'], rows);
    const back = parseCsvRecords(text, { unguard: true });
    expect(back.slice(1)).toEqual(rows);
    // And every guarded cell, taken one at a time.
    for (const v of rows.flat()) expect(unguardCsvCell(guardCsvText(v))).toBe(v);
  });
});
