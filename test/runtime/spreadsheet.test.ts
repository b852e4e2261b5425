import {CHARS_WRITTEN, createRuntime, typeIntoCell} from '../../local/runtime';
import {formulaBarText} from '../../local/runtime/spreadsheet/display';

function setup() {
  const rt = createRuntime({
    distDir: null,
    spreadsheet: {timeZone: 'Asia/Shanghai'},
  });
  const ss = rt.globals.SpreadsheetApp.getActiveSpreadsheet();
  return {rt, ss, sheet: ss.getSheets()[0]};
}

describe('Range values', () => {
  it('checks setValues dimensions exactly, with Apps Script wording', () => {
    const {sheet} = setup();
    const range = sheet.getRange(1, 1, 2, 3);
    expect(() => range.setValues([[1, 2, 3]])).toThrow(
      'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
    expect(() =>
      range.setValues([
        [1, 2, 3],
        [4, 5],
      ]),
    ).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 2 but the range has 3.',
    );
    expect(() => range.setValues('x' as never)).toThrow(
      "don't match the method signature",
    );
    range.setValues([
      [1, 'a', true],
      [null, '', 2.5],
    ]);
    expect(range.getValues()).toEqual([
      [1, 'a', true],
      ['', '', 2.5],
    ]);
  });

  it('turns a string starting with = into a formula and evaluates it; getFormulas keeps the text', () => {
    const {sheet} = setup();
    sheet
      .getRange('A1:E1')
      .setValues([['=1+1', "'=1+1", '=A1*2', '=SUM(1,2)', '=1/0']]);
    expect(sheet.getRange('A1:E1').getFormulas()).toEqual([
      ['=1+1', '', '=A1*2', '=SUM(1,2)', '=1/0'],
    ]);
    expect(sheet.getRange('A1:E1').getValues()).toEqual([
      [2, '=1+1', 4, 3, '#DIV/0!'],
    ]);
    expect(sheet.getRange('A1').getDisplayValue()).toBe('2');
  });

  // Each formula typed into H1 of a sheet holding, from A1: 10, 2.5, "ab", TRUE, (blank), 3.14159
  // and, on a second sheet "Other sheet", A1 = 7.
  it.each([
    ['=50*2', 100, '100'],
    ['=0.1*3', 0.30000000000000004, '0.3'],
    ['=2^3+-1', 7, '7'],
    ['=50%', 0.5, '0.5'],
    ['=A1*1.1', 11, '11'],
    ['=$A$1+B1', 12.5, '12.5'],
    ['=A1+E1', 10, '10'],
    ['=E1', 0, '0'],
    ['=SUM(A1:B1)', 12.5, '12.5'],
    ['=SUM(A1:D1, 1)', 13.5, '13.5'],
    ['=SUM(A:B)', 12.5, '12.5'],
    ['=AVERAGE(A1:B1)', 6.25, '6.25'],
    ['=MAX(A1:F1)-MIN(A1,B1)', 7.5, '7.5'],
    ['=COUNT(A1:F1)', 3, '3'],
    ['=ROUND(F1, 2)', 3.14, '3.14'],
    ['=ROUND(2.5)', 3, '3'],
    ['=ROUND(-2.5)', -3, '-3'],
    ['=ROUND(1234, -2)', 1200, '1200'],
    ['=IF(A1>5, "big", "small")', 'big', 'big'],
    ['=IF(A1<5, "big")', false, 'FALSE'],
    ['=IF(D1, 1, 1/0)', 1, '1'],
    ['=AND(D1, A1=10)', true, 'TRUE'],
    ['=OR(A1<>10, NOT(D1))', false, 'FALSE'],
    ['=CONCATENATE(C1, "-", A1, D1)', 'ab-10TRUE', 'ab-10TRUE'],
    ['=C1&" "&B1*2', 'ab 5', 'ab 5'],
    ['="AB"=C1', true, 'TRUE'],
    ['=A1>=10', true, 'TRUE'],
    ['=C1>A1', true, 'TRUE'],
    ['="say ""hi"""', 'say "hi"', 'say "hi"'],
    ["='Other sheet'!A1*2", 14, '14'],
    ['=ABS(-A1)', 10, '10'],
    ['=1/0', '#DIV/0!', '#DIV/0!'],
    ['=A1/E1', '#DIV/0!', '#DIV/0!'],
    ['=C1*2', '#VALUE!', '#VALUE!'],
    ['=A1:B1*2', '#VALUE!', '#VALUE!'],
    ['=NOSUCH(1)', '#NAME?', '#NAME?'],
    ['=price*2', '#NAME?', '#NAME?'],
    ["='No sheet'!A1", '#REF!', '#REF!'],
    ['=A1001', '#REF!', '#REF!'],
    ['=ROUND()', '#N/A', '#N/A'],
    ['=SUM(1,', '#ERROR!', '#ERROR!'],
    ['=(1+2', '#ERROR!', '#ERROR!'],
    ['=1+*2', '#ERROR!', '#ERROR!'],
    ['=SUM(G1)+1', '#DIV/0!', '#DIV/0!'],
  ])('evaluates %s as %p, shown as %p', (formula, value, shown) => {
    const {ss, sheet} = setup();
    sheet
      .getRange('A1:G1')
      .setValues([[10, 2.5, 'ab', true, null, 3.14159, '=1/0']]);
    ss.insertSheet('Other sheet').getRange('A1').setValue(7);
    const cell = sheet.getRange('H1');
    cell.setValue(formula);
    expect(cell.getFormula()).toBe(formula);
    expect(cell.getValue()).toEqual(value);
    expect(cell.getDisplayValue()).toBe(shown);
  });

  it('recomputes when a referenced cell changes, and reads a circular reference as #REF!', () => {
    const {sheet} = setup();
    sheet.getRange('A1:C1').setValues([[2, '=A1*10', '=B1+1']]);
    expect(sheet.getRange('C1').getValue()).toBe(21);
    sheet.getRange('A1').setValue(3);
    expect(sheet.getRange('B1:C1').getValues()).toEqual([[30, 31]]);
    sheet.getRange('A1').setValue('=C1');
    expect(sheet.getRange('A1:C1').getValues()).toEqual([
      ['#REF!', '#REF!', '#REF!'],
    ]);
    sheet.getRange('D1').setValue('=D1+1');
    expect(sheet.getRange('D1').getDisplayValue()).toBe('#REF!');
  });

  it('shows a formula result through the cell format, and a date-formatted result as a Date', () => {
    const {sheet} = setup();
    sheet.getRange('A1:B1').setValues([[1234.5, '=A1*2']]);
    sheet.getRange('B1').setNumberFormat('#,##0.00');
    expect(sheet.getRange('B1').getDisplayValue()).toBe('2,469.00');
    sheet.getRange('C1').setNumberFormat('yyyy-mm-dd').setValue('=46000+1');
    expect(sheet.getRange('C1').getDisplayValue()).toBe('2025-12-10');
    const date = sheet.getRange('C1').getValue() as Date;
    expect(Object.prototype.toString.call(date)).toBe('[object Date]');
    expect(date.getTime()).toBe(Date.UTC(2025, 11, 9, 16));
  });

  it('keeps everything as text in a plain-text (@) cell, formulas included; setFormula still sets one', () => {
    const {sheet} = setup();
    const range = sheet.getRange('A1:C1').setNumberFormat('@');
    range.setValues([['=1+1', '007', '2026-01-02']]);
    expect(range.getValues()).toEqual([['=1+1', '007', '2026-01-02']]);
    expect(range.getFormulas()).toEqual([['', '', '']]);
    sheet.getRange('A1').setFormula('=2+2');
    expect(sheet.getRange('A1').getFormula()).toBe('=2+2');
  });

  it('parses strings written by a script as typed input in a cell without a format', () => {
    const {sheet} = setup();
    const range = sheet.getRange('A1:F1');
    range.setValues([['111,112', 'TRUE', '007', '12%', 'OPEN', "'111,112"]]);
    expect(range.getValues()).toEqual([
      [111112, true, 7, 0.12, 'OPEN', '111,112'],
    ]);
  });

  it('reads Dates as Dates of the add-on realm and keeps the instant', () => {
    const {rt, sheet} = setup();
    const at = rt.realm.date(Date.UTC(2026, 0, 2, 3, 4, 5));
    sheet.getRange('A1').setValue(at);
    const back = sheet.getRange('A1').getValue() as Date;
    expect(Object.prototype.toString.call(back)).toBe('[object Date]');
    expect(back.getTime()).toBe(at.getTime());
    expect(sheet.getRange('A1').getNumberFormat()).toBe('M/d/yyyy H:mm:ss');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('1/2/2026 11:04:05');
    sheet.getRange('A1').setNumberFormat('0.00');
    expect(typeof sheet.getRange('A1').getValue()).toBe('number');
  });

  it('reads a date-formatted number past any Date (Unix seconds typed in) as the number', () => {
    const {sheet} = setup();
    const cell = sheet.getRange('A1');
    cell.setNumberFormat('yyyy-MM-dd HH:mm');
    cell.setValue(1790000000);
    expect(cell.getValue()).toBe(1790000000);
    expect(cell.getDisplayValue()).toBe('1790000000');
    cell.setValue(46000);
    expect(Object.prototype.toString.call(cell.getValue())).toBe(
      '[object Date]',
    );
  });

  it('shows display values through number formats', () => {
    const {sheet} = setup();
    const range = sheet.getRange('A1:F1');
    range.setValues([[1234.5, 1234.5, 0.256, 3, 2.5, 'x']]);
    range.setNumberFormats([['#,##0.00', '0', '0.0%', '0.00', '@', '@']]);
    expect(range.getDisplayValues()).toEqual([
      ['1,234.50', '1235', '25.6%', '3.00', '2.5', 'x'],
    ]);
    sheet.getRange('A2').setValue('2026-01-02 10:00:00');
    sheet.getRange('A2').setNumberFormat('yyyy-mm-dd hh:mm:ss');
    expect(sheet.getRange('A2').getDisplayValue()).toBe('2026-01-02 10:00:00');
    expect(sheet.getRange('A3').getNumberFormat()).toBe('0.###############');
  });

  it.each([
    ['0.###', -5, '-5.'],
    ['0.###', 5.5, '5.5'],
    ['0.###############', 20, '20.'],
    ['General', -5, '-5'],
    ['General', 5.5, '5.5'],
    ['General', 1 / 3, '0.333333333'],
    ['0.00##', 5, '5.00'],
    ['0.00##', 0.015, '0.015'],
    ['0.00##', 1.23456, '1.2346'],
    ['"$"#,##0.00', -1234.5, '-$1,234.50'],
    ['0.00E+00', 12345, '1.23E+04'],
  ])(
    'shows a number through %p as Sheets does (ssf): %p as %p',
    (format, value, shown) => {
      const {sheet} = setup();
      const cell = sheet.getRange('A1').setNumberFormat(format).setValue(value);
      expect(cell.getDisplayValue()).toBe(shown);
    },
  );

  it('shows a cell never formatted in the automatic format: whole numbers in full', () => {
    const {sheet} = setup();
    const range = sheet.getRange('A1:C1');
    range.setValues([[-5, 123456789012, 2.5]]);
    expect(range.getDisplayValues()).toEqual([['-5', '123456789012', '2.5']]);
  });

  it('names a number format the runtime cannot show instead of guessing', () => {
    const {sheet} = setup();
    const cell = sheet.getRange('A1').setNumberFormat('#,##0.##').setValue(5.5);
    expect(() => cell.getDisplayValue()).toThrow(
      'The runtime cannot show number format "#,##0.##"',
    );
  });

  it('refuses more than 50,000 characters in a cell', () => {
    const {sheet} = setup();
    expect(() => sheet.getRange('A1').setValue('x'.repeat(50001))).toThrow(
      'Your input contains more than the maximum of 50000 characters in a single cell.',
    );
  });
});

describe('what a user types', () => {
  it('is parsed as Sheets parses it, unless the cell is plain text', () => {
    const {rt, sheet} = setup();
    typeIntoCell(sheet, 'A1', '111,112');
    typeIntoCell(sheet, 'B1', 'TRUE');
    typeIntoCell(sheet, 'C1', '2026-01-02');
    typeIntoCell(sheet, 'D1', '1.5');
    sheet.getRange('E1').setNumberFormat('@');
    typeIntoCell(sheet, 'E1', '111,112');
    const [[a, b, c, d, e]] = sheet.getRange('A1:E1').getValues();
    expect([a, b, d, e]).toEqual([111112, true, 1.5, '111,112']);
    // Midnight of 2026-01-02 in the spreadsheet's zone (Asia/Shanghai, UTC+8).
    expect((c as Date).getTime()).toBe(Date.UTC(2026, 0, 1, 16));
    expect(sheet.getRange('C1').getDisplayValue()).toBe('2026-01-02');
    // Only the script's setNumberFormat counted: typing is the user's, not a service call.
    expect(rt.snapshot().counts['SpreadsheetApp.cellsWritten']).toBe(1);
  });

  it('is refused by a data validation rule that rejects invalid input', () => {
    const {rt, sheet} = setup();
    const rule = rt.globals.SpreadsheetApp.newDataValidation()
      .requireValueInList(['CPI', 'CPC'], true)
      .setAllowInvalid(false)
      .setHelpText('pick one')
      .build();
    sheet.getRange('A2:A3').setDataValidation(rule);
    expect(sheet.getRange('A2').getDataValidation()!.getCriteriaType()).toBe(
      rt.globals.SpreadsheetApp.DataValidationCriteria.VALUE_IN_LIST,
    );
    expect(
      sheet.getRange('A2').getDataValidation()!.getCriteriaValues(),
    ).toEqual([['CPI', 'CPC'], true]);
    expect(() => typeIntoCell(sheet, 'A2', 'CPM')).toThrow(
      'The data you entered in cell A2 violates the data validation rules set on this cell.',
    );
    expect(() => sheet.getRange('A2:A3').setValues([['CPI'], ['CPM']])).toThrow(
      'cell A3 violates',
    );
    expect(sheet.getRange('A2').getValue()).toBe('');
    typeIntoCell(sheet, 'A2', 'CPC');
    expect(sheet.getRange('A2').getValue()).toBe('CPC');
  });
});

describe('sheet geometry', () => {
  it('starts at 1000 x 26 and refuses ranges outside it', () => {
    const {sheet} = setup();
    expect([sheet.getMaxRows(), sheet.getMaxColumns()]).toEqual([1000, 26]);
    const outside =
      'The coordinates of the range are outside the dimensions of the sheet.';
    expect(() => sheet.getRange(1001, 1)).toThrow(outside);
    expect(() => sheet.getRange(1, 1, 1, 27)).toThrow(outside);
    expect(() => sheet.getRange('AA1')).toThrow(outside);
    expect(() => sheet.getRange(0, 1)).toThrow(
      'The starting row of the range is too small.',
    );
    expect(() => sheet.getRange(1, 1, 0, 1)).toThrow(
      'The number of rows in the range must be at least 1.',
    );
    sheet.insertRowsAfter(1000, 500);
    sheet.insertColumnsAfter(26, 4);
    expect(sheet.getRange(1500, 30).getA1Notation()).toBe('AD1500');
  });

  it('parses A1 notation forms', () => {
    const {sheet} = setup();
    expect(sheet.getRange('B2').getA1Notation()).toBe('B2');
    const block = sheet.getRange('A1:C3');
    expect([
      block.getRow(),
      block.getColumn(),
      block.getNumRows(),
      block.getNumColumns(),
    ]).toEqual([1, 1, 3, 3]);
    const column = sheet.getRange('B:B');
    expect([column.getColumn(), column.getNumRows()]).toEqual([2, 1000]);
    expect(sheet.getRange("'Sheet1'!$A$1:B2").getA1Notation()).toBe('A1:B2');
    expect(() => sheet.getRange('Other!A1')).toThrow('Range not found');
    expect(() => sheet.getRange('nonsense')).toThrow('Range not found');
  });

  it('inserts and deletes rows and columns, moving content', () => {
    const {sheet} = setup();
    sheet.getRange('A1:A3').setValues([['a'], ['b'], ['c']]);
    sheet.insertRowsBefore(2, 2);
    expect(sheet.getRange('A1:A5').getValues().flat()).toEqual([
      'a',
      '',
      '',
      'b',
      'c',
    ]);
    sheet.deleteRows(2, 2);
    expect(sheet.getRange('A1:A3').getValues().flat()).toEqual(['a', 'b', 'c']);
    expect(sheet.getMaxRows()).toBe(1000);
    sheet.insertColumnBefore(1);
    expect(sheet.getRange('B1').getValue()).toBe('a');
    sheet.deleteColumn(1);
    expect(() => sheet.deleteRows(1, 1000)).toThrow(
      'Sorry, it is not possible to delete all non-frozen rows.',
    );
    expect(() => sheet.deleteRows(999, 5)).toThrow(
      'Those rows are out of bounds.',
    );
  });

  it('tracks the last row and column with content, and the data range', () => {
    const {sheet} = setup();
    expect([sheet.getLastRow(), sheet.getLastColumn()]).toEqual([0, 0]);
    sheet.getRange('C5').setValue('x');
    sheet.getRange('A9').setBackground('#ff0000');
    expect([sheet.getLastRow(), sheet.getLastColumn()]).toEqual([5, 3]);
    expect(sheet.getDataRange().getA1Notation()).toBe('A1:C5');
    sheet.appendRow(['y', 1]);
    expect(sheet.getRange('A6:B6').getValues()).toEqual([['y', 1]]);
  });

  it('grows by a row when appendRow meets a full sheet', () => {
    const {sheet} = setup();
    sheet.getRange(1000, 1).setValue('last');
    sheet.appendRow(['more']);
    expect(sheet.getMaxRows()).toBe(1001);
    expect(sheet.getRange(1001, 1).getValue()).toBe('more');
  });

  it('keeps formats, notes, frozen rows and protections', () => {
    const {sheet} = setup();
    const header = sheet.getRange('A1:B1');
    header
      .setFontWeight('bold')
      .setBackgrounds([['#ABC', 'red']])
      .setNotes([['n1', '']]);
    expect(header.getFontWeights()).toEqual([['bold', 'bold']]);
    expect(header.getBackgrounds()).toEqual([['#aabbcc', '#ff0000']]);
    expect(header.getNotes()).toEqual([['n1', '']]);
    expect(sheet.getRange('C1').getBackground()).toBe('#ffffff');
    expect(() => header.setFontWeight('heavy')).toThrow(
      'Invalid argument: fontWeight',
    );
    sheet.setFrozenRows(1);
    expect(sheet.getFrozenRows()).toBe(1);
    sheet.setColumnWidth(2, 240);
    expect(sheet.getColumnWidth(2)).toBe(240);
    const p = sheet.protect().setDescription('managed').setWarningOnly(true);
    expect([p.getDescription(), p.isWarningOnly()]).toEqual(['managed', true]);
    header.clear();
    expect(header.getFontWeights()).toEqual([['normal', 'normal']]);
  });
});

describe('what the playground reads of a sheet', () => {
  it('knows which cells a warning-only protection covers, and its description', () => {
    const {sheet} = setup();
    sheet
      .getRange('B1:C1')
      .protect()
      .setDescription('headers')
      .setWarningOnly(true);
    sheet.getRange('A5').protect().setDescription('locked');
    expect(
      [
        [1, 1],
        [1, 2],
        [1, 3],
        [2, 2],
        [5, 1],
      ].map(([r, c]) => sheet.protectionWarningAt(r, c)),
    ).toEqual([undefined, 'headers', 'headers', undefined, undefined]);
    sheet.protect().setWarningOnly(true);
    expect(sheet.protectionWarningAt(9, 9)).toBe('');
  });

  it('says why a value breaks its rule, even one that allows invalid data', () => {
    const {rt, sheet} = setup();
    const App = rt.globals.SpreadsheetApp;
    const cell = sheet.getRange('A1');
    cell.setDataValidation(
      App.newDataValidation()
        .requireValueInList(['YES', 'NO'], true)
        .setAllowInvalid(true)
        .build(),
    );
    cell.setValue('MAYBE');
    const broken = () =>
      sheet
        .cellAt(1, 1)!
        .validation!.broken(sheet.cellAt(1, 1)!.content, undefined);
    expect(broken()).toBe(
      'Invalid: Input must be an item on the specified list.',
    );
    cell.setValue('YES');
    expect(broken()).toBeUndefined();
    cell.setDataValidation(
      App.newDataValidation()
        .requireValueInList(['YES'], true)
        .setHelpText('Pick YES')
        .build(),
    );
    cell.setValue('NO');
    expect(broken()).toBe('Pick YES');
  });

  it("shows a value in the formula bar as Sheets does: the value, not its number format's display", () => {
    const {sheet} = setup();
    sheet
      .getRange('A1:G1')
      .setValues([
        [10012, 0.585, 0.125, 'text', true, '', '2025-01-16 10:30:00'],
      ]);
    sheet.getRange('A1').setNumberFormat('0.00');
    sheet.getRange('C1').setNumberFormat('0.0%');
    sheet.getRange('G1').setNumberFormat('yyyy-mm-dd hh:mm:ss');
    sheet.getRange('H1').setFormula('=A1*2');
    typeIntoCell(sheet, 'I1', '2026-01-02');
    typeIntoCell(sheet, 'J1', '9:05');
    const bar = (column: number) => {
      const cell = sheet.cellAt(1, column);
      return formulaBarText(cell?.content, cell?.format);
    };
    expect(sheet.getRange('A1:J1').getDisplayValues()[0]).toEqual([
      '10012.00',
      '0.585',
      '12.5%',
      'text',
      'TRUE',
      '',
      '2025-01-16 10:30:00',
      '20024',
      '2026-01-02',
      '9:05:00',
    ]);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(bar)).toEqual([
      '10012',
      '0.585',
      '12.5%',
      'text',
      'TRUE',
      '',
      '1/16/2025 10:30:00',
      '=A1*2',
      '1/2/2026',
      '9:05:00',
    ]);
    // Typed back, the formula bar's text gives the same value.
    typeIntoCell(sheet, 'G1', bar(7));
    expect(sheet.getRange('G1').getDisplayValue()).toBe('2025-01-16 10:30:00');
  });

  it('records the range a script selects, and activates its sheet', () => {
    const {ss} = setup();
    const budgets = ss.insertSheet('Budgets');
    ss.insertSheet('Other');
    expect(ss.selection()).toBeNull();
    budgets.getRange(3, 1, 1, 4).activate();
    expect(ss.getActiveSheet()).toBe(budgets);
    expect(ss.selection()).toEqual({
      sheet: budgets,
      rect: {row: 3, column: 1, numRows: 1, numColumns: 4},
      count: 1,
    });
    budgets.getRange('B2').activate();
    expect(ss.selection()?.count).toBe(2);
  });
});

describe('the spreadsheet', () => {
  it('inserts, finds and deletes sheets; names are unique', () => {
    const {ss} = setup();
    const offers = ss.insertSheet('Offers');
    expect(ss.getSheetByName('Offers')).toBe(offers);
    expect(ss.getSheetByName('Nope')).toBeNull();
    expect(() => ss.insertSheet('offers')).toThrow(
      'A sheet with the name "offers" already exists. Please enter another name.',
    );
    ss.deleteSheet(offers);
    expect(ss.getSheets().map(s => s.getName())).toEqual(['Sheet1']);
    expect(() => ss.deleteSheet(ss.getSheets()[0])).toThrow(
      "You can't remove all the sheets in a document.",
    );
    expect(ss.getRange('Sheet1!A1:B2').getNumRows()).toBe(2);
  });

  it('prices a read as a round trip plus its cells; a Range is coordinates, no round trip', () => {
    const {rt, sheet} = setup();
    const L = rt.latency;
    rt.meter.reset();
    sheet.getRange(1, 1, 100, 10).getValues();
    const snap = rt.snapshot();
    expect(snap.counts['Sheet.getRange']).toBe(1);
    expect(snap.counts['Range.getValues']).toBe(1);
    expect(snap.counts['SpreadsheetApp.cellsRead']).toBe(1000);
    expect(snap.counts['SpreadsheetApp.roundTrips']).toBe(1);
    expect(snap.elapsedMs).toBeCloseTo(
      L.otherCallMs + L.spreadsheetCallMs + 1000 * L.spreadsheetPerCellMs,
      6,
    );
  });
});

describe('prices by the values a call carries', () => {
  it('one value set on a whole range costs one cell; an array costs each of its cells', () => {
    const {rt, sheet} = setup();
    const L = rt.latency;
    const range = sheet.getRange(1, 1, 1000, 10);
    rt.meter.reset();
    range.setNumberFormat('@');
    range.clearContent();
    const one = 2 * (L.spreadsheetQueuedCallMs + L.spreadsheetPerCellMs);
    expect(rt.snapshot().elapsedMs).toBeCloseTo(one, 2);
    range.setNumberFormats(
      Array.from({length: 1000}, () => new Array<string>(10).fill('0')),
    );
    expect(rt.snapshot().elapsedMs).toBeCloseTo(
      one + L.spreadsheetQueuedCallMs + 10000 * L.spreadsheetPerCellMs,
      2,
    );
    expect(rt.snapshot().counts['SpreadsheetApp.cellsWritten']).toBe(30000);
  });

  it('counts the characters that writes of values carry, in all and per sheet, apart from their price', () => {
    const {rt, ss, sheet} = setup();
    const other = ss.insertSheet('Other');
    rt.meter.reset();
    sheet.getRange(1, 1, 2, 2).setValues([
      ['abc', 12.5],
      [true, new Date(0)],
    ]);
    sheet.getRange(1, 3, 100, 1).setValue('xy');
    other.getRange(1, 1).setFormula('=A2');
    other.appendRow(['hello']);
    typeIntoCell(other, 'E5', 'typed by a person');
    const counts = rt.snapshot().counts;
    // 3 + 4 + 4 + a date's 24; a value set on a range once; '=A2'; 'hello'. Typing is not the script's.
    expect(counts[`${CHARS_WRITTEN} ${sheet.getName()}`]).toBe(37);
    expect(counts[`${CHARS_WRITTEN} Other`]).toBe(8);
    expect(counts[CHARS_WRITTEN]).toBe(45);
  });

  it('a range list colours its ranges in one queued call carrying a value per range', () => {
    const {rt, sheet} = setup();
    const L = rt.latency;
    rt.meter.reset();
    sheet.getRangeList(['B2:C3', 'B7:C7']).setBackground('grey');
    const snap = rt.snapshot();
    expect(snap.counts['RangeList.setBackground']).toBe(1);
    expect(snap.counts['SpreadsheetApp.cellsWritten']).toBe(6);
    expect(snap.elapsedMs).toBeCloseTo(
      L.otherCallMs + L.spreadsheetQueuedCallMs + 2 * L.spreadsheetPerCellMs,
      2,
    );
    expect(sheet.getRange('A2:C7').getBackgrounds()).toEqual([
      ['#ffffff', '#808080', '#808080'],
      ['#ffffff', '#808080', '#808080'],
      ['#ffffff', '#ffffff', '#ffffff'],
      ['#ffffff', '#ffffff', '#ffffff'],
      ['#ffffff', '#ffffff', '#ffffff'],
      ['#ffffff', '#808080', '#808080'],
    ]);
    sheet.getRangeList(['C2:C7']).setBackground(null);
    expect(sheet.getRange('B2:C2').getBackgrounds()).toEqual([
      ['#808080', '#ffffff'],
    ]);
    expect(() => sheet.getRangeList(['B2:nowhere'])).toThrow('Range not found');
  });
});

describe('filters', () => {
  it('hide the rows whose shown value a column hides, keep their values readable, one per sheet', () => {
    const {rt, sheet} = setup();
    sheet.getRange('A1:B4').setValues([
      ['offer_id', 'daily_cap_type'],
      [1, 'BUDGET'],
      [2, 'CONVERSION'],
      [3, 'BUDGET'],
    ]);
    const filter = sheet.getRange('A1:B4').createFilter();
    expect(sheet.getFilter()).toBe(filter);
    const App = rt.globals.SpreadsheetApp;
    filter.setColumnFilterCriteria(
      2,
      App.newFilterCriteria().setHiddenValues(['BUDGET']).build(),
    );
    expect([1, 2, 3, 4].map(r => sheet.isRowHiddenByFilter(r))).toEqual([
      false,
      true,
      false,
      true,
    ]);
    expect(sheet.getRange('A2:A4').getValues()).toEqual([[1], [2], [3]]);
    expect(filter.getColumnFilterCriteria(2)!.getHiddenValues()).toEqual([
      'BUDGET',
    ]);
    expect(() => filter.setColumnFilterCriteria(3, null)).toThrow(
      'Invalid argument: columnPosition',
    );
    expect(() => sheet.getRange('A1:B2').createFilter()).toThrow(
      "You can't create a filter in a sheet that already has a filter.",
    );
    filter.removeColumnFilterCriteria(2);
    expect(sheet.isRowHiddenByFilter(2)).toBe(false);
    filter.remove();
    expect(sheet.getFilter()).toBeNull();
  });
});

describe('write caching', () => {
  const QUEUED = 'SpreadsheetApp.(queued writes sent)';

  it('queues writes and sends them in one round trip before the next read', () => {
    const {rt, sheet} = setup();
    const L = rt.latency;
    const range = sheet.getRange(1, 1, 2, 2);
    rt.meter.reset();
    range.setValues([
      [1, 2],
      [3, 4],
    ]);
    range.setNumberFormat('0.00');
    range.setNote('n');
    expect(rt.snapshot().elapsedMs).toBeCloseTo(
      3 * L.spreadsheetQueuedCallMs + 6 * L.spreadsheetPerCellMs,
      2,
    );
    expect(range.getValues()).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const snap = rt.snapshot();
    expect(snap.counts[QUEUED]).toBe(1);
    expect(snap.counts['SpreadsheetApp.roundTrips']).toBe(2);
    expect(snap.elapsedMs).toBeCloseTo(
      3 * L.spreadsheetQueuedCallMs +
        2 * L.spreadsheetCallMs +
        10 * L.spreadsheetPerCellMs,
      2,
    );
  });

  it('makes alternating reads and writes pay a round trip each, as Google warns', () => {
    const {rt, sheet} = setup();
    const cell = sheet.getRange('A1');
    rt.meter.reset();
    for (let i = 0; i < 3; i++) {
      cell.setValue(i);
      cell.getValue();
    }
    expect(rt.snapshot().counts[QUEUED]).toBe(3);
    expect(rt.snapshot().counts['SpreadsheetApp.roundTrips']).toBe(6);
  });

  it('sends the queue at flush(), once, and never an empty one', () => {
    const {rt, sheet} = setup();
    const app = rt.globals.SpreadsheetApp;
    rt.meter.reset();
    app.flush();
    sheet.getRange('A1').setValue(1);
    app.flush();
    app.flush();
    expect(rt.snapshot().counts[QUEUED]).toBe(1);
    expect(rt.snapshot().counts['SpreadsheetApp.flush']).toBe(3);
  });

  it('sends what is still queued when the function returns, or fails', () => {
    const {rt} = setup();
    rt.load(
      `function write() { SpreadsheetApp.getActive().getSheets()[0].getRange('A1').setValue(1); }
       function writeAndFail() { write(); throw new Error('boom'); }`,
      'Code.js',
    );
    rt.meter.reset();
    rt.run('write');
    expect(rt.snapshot().counts[QUEUED]).toBe(1);
    expect(() => rt.run('writeAndFail')).toThrow('boom');
    expect(rt.snapshot().counts[QUEUED]).toBe(2);
    // Nothing is left over for the next execution to pay.
    rt.run('write');
    expect(rt.snapshot().counts[QUEUED]).toBe(3);
  });
});
