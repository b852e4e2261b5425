/**
 * Apps Script queues Spreadsheet writes until its next round trip, and drops the queue of an
 * execution it kills at the time limit: what a job wrote after its last read or flush is lost.
 */
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createRuntime, EXCEEDED_TIME, typeIntoCell} from '../../local/runtime';

function runtime() {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-queue-'));
  writeFileSync(
    join(dir, 'a.js'),
    `
function writes(sent) {
  var sheet = SpreadsheetApp.getActive().getSheets()[0];
  sheet.getRange('A1').setValue('before the round trip');
  if (sent === 'flush') SpreadsheetApp.flush();
  if (sent === 'read') sheet.getRange('A1').getValue();
  sheet.getRange('A2:B2').setValues([['queued', 5]]);
  sheet.getRange('C2').setFormula('=A2');
  sheet.getRange('C1').clearContent();
  sheet.appendRow(['appended']);
}
function writesThenRunsOut(sent) {
  writes(sent);
  var props = PropertiesService.getScriptProperties();
  for (;;) { Utilities.sleep(10000); props.getProperty('x'); }
}
function writesThenFails() {
  writes('');
  throw new Error('the job failed');
}
`,
  );
  const rt = createRuntime({distDir: dir});
  const sheet = rt.spreadsheet.getSheets()[0];
  typeIntoCell(sheet, 'A2', 'typed A2');
  typeIntoCell(sheet, 'C1', 'typed C1');
  const grid = () => sheet.getRange('A1:C3').getValues();
  return {rt, grid};
}

const AS_TYPED = [
  ['', '', 'typed C1'],
  ['typed A2', '', ''],
  ['', '', ''],
];
const ALL_WRITTEN = (first: string) => [
  [first, '', ''],
  ['queued', 5, 'queued'],
  ['appended', '', ''],
];

describe('a killed execution', () => {
  it('loses every cell written since its last round trip: they hold what they held before', () => {
    const {rt, grid} = runtime();
    expect(() => rt.call('writesThenRunsOut', '')).toThrow(EXCEEDED_TIME);
    expect(grid()).toEqual(AS_TYPED);
  });

  it('keeps what SpreadsheetApp.flush() sent, and loses only what came after', () => {
    const {rt, grid} = runtime();
    expect(() => rt.call('writesThenRunsOut', 'flush')).toThrow(EXCEEDED_TIME);
    expect(grid()).toEqual([
      ['before the round trip', '', 'typed C1'],
      ...AS_TYPED.slice(1),
    ]);
  });

  it('keeps what a read sent along (a read is a round trip)', () => {
    const {rt, grid} = runtime();
    expect(() => rt.call('writesThenRunsOut', 'read')).toThrow(EXCEEDED_TIME);
    expect(grid()[0][0]).toBe('before the round trip');
    expect(grid()[1]).toEqual(['typed A2', '', '']);
  });
});

describe('an execution that ends', () => {
  it('by returning: its queue is sent, every write stays', () => {
    const {rt, grid} = runtime();
    rt.call('writes', '');
    expect(grid()).toEqual(ALL_WRITTEN('before the round trip'));
  });

  it('by an error of its own: its queue is sent all the same', () => {
    const {rt, grid} = runtime();
    expect(() => rt.call('writesThenFails')).toThrow('the job failed');
    expect(grid()).toEqual(ALL_WRITTEN('before the round trip'));
  });
});
