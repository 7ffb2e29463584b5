/**
 * The cases every CSV writer of Coffer is held to (this lib's spec and the console's test run them): a value, and the
 * cell written for it. Formulas follow OWASP's CSV injection guidance: a cell whose text begins with = + - @, a tab or
 * a carriage return gets a leading `'`, so a spreadsheet shows it as text instead of running it.
 */
export const CSV_CELL_CASES: ReadonlyArray<readonly [value: unknown, cell: string]> = [
  ['plain', 'plain'],
  [42, '42'],
  [null, ''],
  [undefined, ''],
  ['a,b', '"a,b"'],
  ['say "hi"', '"say ""hi"""'],
  ['two\nlines', '"two\nlines"'],
  [{ k: 1 }, '"{""k"":1}"'],
  [`=cmd|' /C calc'!A0`, `'=cmd|' /C calc'!A0`],
  ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
  ['+1+1', "'+1+1"],
  ['-2+3', "'-2+3"],
  ['@SUM(1+1)', "'@SUM(1+1)"],
  ['\t=1', "'\t=1"],
  ['\r=1', `"'\r=1"`],
  ['a=1', 'a=1'],
  [-1, "'-1"],
];
