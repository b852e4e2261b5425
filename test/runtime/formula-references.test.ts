import {createRuntime, EXCEEDED_TIME, typeIntoCell} from '../../local/runtime';

function setup() {
  const rt = createRuntime({
    distDir: null,
    spreadsheet: {sheetNames: ['Budgets', 'Summary']},
  });
  const ss = rt.globals.SpreadsheetApp.getActiveSpreadsheet();
  const budgets = ss.getSheetByName('Budgets')!;
  const summary = ss.getSheetByName('Summary')!;
  return {rt, ss, budgets, summary};
}

/** A Budgets-like sheet: header, then offers whose total_budget (G) is daily_budget (F) * 10. */
function budgetRows(budgets: ReturnType<typeof setup>['budgets']) {
  budgets.getRange('A1:G5').setValues([
    ['offer_id', 'name', 'c', 'd', 'geo', 'daily_budget', 'total_budget'],
    ['101', 'Split', '', '', 'US', 200, ''],
    ['101', 'Split', '', '', 'GB', 300, ''],
    ['102', 'Other', '', '', 'ALL', 100, '=F4*10'],
    ['103', 'Last', '', '', 'ALL', 50, '=$F$5*10'],
  ]);
}

describe('formulas follow inserted and deleted rows', () => {
  it('keeps total_budget on its own offer when a row above it is deleted (issue 19)', () => {
    const {budgets} = setup();
    budgetRows(budgets);
    budgets.getRange('G4').setFormula('=F4*10');
    expect(budgets.getRange('G4').getValue()).toBe(1000);
    budgets.deleteRow(3);
    expect(budgets.getRange('G3').getFormula()).toBe('=F3*10');
    expect(budgets.getRange('G3').getValue()).toBe(1000);
    expect(budgets.getRange('G4').getFormula()).toBe('=$F$4*10');
    expect(budgets.getRange('G4').getValue()).toBe(500);
  });

  it('writes #REF! for a reference into a deleted row, as Sheets does', () => {
    const {budgets} = setup();
    budgetRows(budgets);
    budgets.getRange('H1').setFormula('=F4+F5');
    budgets.deleteRow(4);
    expect(budgets.getRange('H1').getFormula()).toBe('=#REF!+F4');
    budgets.deleteRow(4);
    expect(budgets.getRange('H1').getFormula()).toBe('=#REF!+#REF!');
    expect(budgets.getRange('H1').getValue()).toBe('#REF!');
    expect(budgets.getRange('H1').getDisplayValue()).toBe('#REF!');
  });

  it('moves references down over inserted rows, relative and absolute alike', () => {
    const {budgets} = setup();
    budgetRows(budgets);
    budgets.getRange('H1').setFormula('=SUM(F2:F5)+F$2+$F3+h2');
    budgets.insertRowsBefore(3, 2);
    expect(budgets.getRange('G6').getFormula()).toBe('=F6*10');
    expect(budgets.getRange('G6').getValue()).toBe(1000);
    expect(budgets.getRange('G7').getFormula()).toBe('=$F$7*10');
    // Untouched references keep their text (h2 stays lower case); moved ones are Sheets' form.
    expect(budgets.getRange('H1').getFormula()).toBe('=SUM(F2:F7)+F$2+$F5+h2');
    expect(budgets.getRange('H1').getValue()).toBe(650 + 200 + 300);
  });

  it('shrinks a range partly deleted and loses one wholly deleted; whole columns stay', () => {
    const {budgets, summary} = setup();
    budgetRows(budgets);
    budgets.getRange('H1:H2').setFormulas([['=SUM(F2:F5)'], ['=SUM(F5:F3)']]);
    summary
      .getRange('A1:B1')
      .setFormulas([['=SUM(Budgets!F3:F4)', '=SUM(Budgets!F:F)']]);
    budgets.deleteRows(3, 2);
    expect(budgets.getRange('H1:H2').getFormulas()).toEqual([
      ['=SUM(F2:F3)'],
      ['=SUM(F3:F3)'],
    ]);
    expect(budgets.getRange('H1:H2').getValues()).toEqual([[250], [50]]);
    expect(summary.getRange('A1:B1').getFormulas()).toEqual([
      ['=SUM(#REF!)', '=SUM(Budgets!F:F)'],
    ]);
    expect(summary.getRange('A1:B1').getValues()).toEqual([['#REF!', 250]]);
  });

  it('rewrites formulas of other sheets that name the changed sheet, and only those', () => {
    const {budgets, summary} = setup();
    budgetRows(budgets);
    summary
      .getRange('A1:D1')
      .setFormulas([
        ["='Budgets'!F4", '=Budgets!$F$5', '=F4', "=SUM('budgets'!F2:F5)"],
      ]);
    summary.getRange('F4').setValue(7);
    budgets.deleteRow(2);
    expect(summary.getRange('A1:D1').getFormulas()).toEqual([
      ["='Budgets'!F3", '=Budgets!$F$4', '=F4', "=SUM('budgets'!F2:F4)"],
    ]);
    expect(summary.getRange('A1:D1').getValues()).toEqual([[100, 50, 7, 450]]);
    summary.insertRowBefore(1);
    expect(summary.getRange('A2:C2').getFormulas()).toEqual([
      ["='Budgets'!F3", '=Budgets!$F$4', '=F5'],
    ]);
  });

  it('moves column references over inserted and deleted columns', () => {
    const {budgets} = setup();
    budgetRows(budgets);
    budgets.getRange('H1').setFormula('=SUM(F:F)+$F$4');
    budgets.insertColumnBefore(3);
    expect(budgets.getRange('H4').getFormula()).toBe('=G4*10');
    expect(budgets.getRange('I1').getFormula()).toBe('=SUM(G:G)+$G$4');
    expect(budgets.getRange('I1').getValue()).toBe(650 + 100);
    budgets.deleteColumn(7);
    expect(budgets.getRange('G4').getFormula()).toBe('=#REF!*10');
    expect(budgets.getRange('H1').getFormula()).toBe('=SUM(#REF!)+#REF!');
  });
});

describe('Range.sort', () => {
  it('moves whole rows and treats each moved formula as a copy: relative rows move, absolute stay', () => {
    const {budgets} = setup();
    budgetRows(budgets);
    budgets.getRange('G2').setFormula('=F2*10+$F$2');
    budgets.getRange('B4').setNote('ask Ann').setBackground('#ff0000');
    budgets.getRange('A2:G5').sort({column: 6, ascending: true});
    expect(budgets.getRange('A2:B5').getValues()).toEqual([
      [103, 'Last'],
      [102, 'Other'],
      [101, 'Split'],
      [101, 'Split'],
    ]);
    expect(budgets.getRange('G2:G5').getFormulas()).toEqual([
      ['=$F$5*10'],
      ['=F3*10'],
      ['=F4*10+$F$2'],
      [''],
    ]);
    // $F$5 stays put: it now reads the row sorted into row 5.
    expect(budgets.getRange('G2:G4').getValues()).toEqual([
      [3000],
      [1000],
      [2000 + 50],
    ]);
    expect(budgets.getRange('B3').getNote()).toBe('ask Ann');
    expect(budgets.getRange('B3').getBackground()).toBe('#ff0000');
    expect(budgets.getRange('B4').getNote()).toBe('');
  });

  it('sorts by several keys, descending, blanks last, and only the columns of the range', () => {
    const {budgets} = setup();
    budgets.getRange('A1:C5').setValues([
      ['a', 'b', 'c'],
      ['x', 1, 'r2'],
      ['', 2, 'r3'],
      ['y', 3, 'r4'],
      ['x', 4, 'r5'],
    ]);
    budgets.getRange('A2:B5').sort([1, {column: 2, ascending: false}]);
    expect(budgets.getRange('A2:C5').getValues()).toEqual([
      ['x', 4, 'r2'],
      ['x', 1, 'r3'],
      ['y', 3, 'r4'],
      ['', 2, 'r5'],
    ]);
    expect(() => budgets.getRange('A2:B5').sort(3)).toThrow(
      'Invalid argument: sortSpecObj',
    );
  });
});

describe('a killed execution after rows moved', () => {
  it('puts back the formula a queued write replaced, as the move rewrote it', () => {
    const {rt, budgets} = setup();
    budgetRows(budgets);
    typeIntoCell(budgets, 'G4', '=F4*10');
    typeIntoCell(budgets, 'H5', '=F5');
    rt.load(
      `function overwritesThenRunsOut() {
        var sheet = SpreadsheetApp.getActive().getSheetByName('Budgets');
        sheet.getRange('G4').setFormula('=F2');
        sheet.getRange('H5').setValue(7);
        sheet.deleteRow(3);
        sheet.getRange('A2:H3').sort({column: 1, ascending: false});
        for (;;) Utilities.sleep(10000);
      }`,
      'job.js',
    );
    expect(() => rt.run('overwritesThenRunsOut')).toThrow(EXCEEDED_TIME);
    // Offer 102's row was sorted up into row 2: its total_budget points at its own budget again.
    expect(
      budgets
        .getRange('A2:H4')
        .getFormulas()
        .map(r => r.slice(6)),
    ).toEqual([
      ['=F2*10', ''],
      ['', ''],
      ['=$F$4*10', '=F4'],
    ]);
    expect(budgets.getRange('A2').getValue()).toBe(102);
    expect(budgets.getRange('G2').getValue()).toBe(1000);
  });
});
