/**
 * A collaborator edits the spreadsheet while a job runs: between its read and its write, during
 * its fetches. The runtime lets tests act as that person at a chosen moment.
 */
import {createRuntime, EXCEEDED_TIME} from '../../local/runtime';
import type {WireFetch} from '../../local/http-types';

/** A job that reads Budgets, sends two calls (fetch, then fetchAll), reads again and writes. */
const JOB = `
function job() {
  var sheet = SpreadsheetApp.getActive().getSheetByName('Budgets');
  var before = sheet.getRange('A2:B4').getValues();
  UrlFetchApp.fetch('https://api.test/one');
  var after = sheet.getRange('A2:B4').getValues();
  UrlFetchApp.fetchAll(['https://api.test/two', 'https://api.test/three']);
  sheet.getRange('C2').setValue('sent');
  return {before: before, after: after};
}
function asks() {
  var sheet = SpreadsheetApp.getActive().getSheetByName('Budgets');
  var before = sheet.getRange('A2:B4').getValues();
  var ui = SpreadsheetApp.getUi();
  var answer = ui.alert('Send?', 'Sure?', ui.ButtonSet.YES_NO);
  var after = sheet.getRange('A2:B4').getValues();
  return {before: before, after: after, yes: answer === ui.Button.YES};
}
function jobThenRunsOut() {
  var sheet = SpreadsheetApp.getActive().getSheetByName('Budgets');
  sheet.getRange('A2:B4').getValues();
  sheet.getRange('C2:C3').setValues([['queued'], ['queued']]);
  UrlFetchApp.fetch('https://api.test/one');
  for (;;) Utilities.sleep(10000);
}
`;

function setup() {
  const events: string[] = [];
  const wire: WireFetch = request => {
    events.push(`wire ${new URL(request.url).pathname}`);
    return {
      kind: 'response',
      status: 200,
      headers: {},
      body: new Uint8Array(0),
      latencyMs: 0,
    };
  };
  const rt = createRuntime({
    distDir: null,
    fetch: wire,
    spreadsheet: {sheetNames: ['Budgets', 'History']},
  });
  rt.load(JOB, 'job.js');
  const budgets = rt.spreadsheet.sheet('Budgets')!;
  budgets.getRange('A1:C4').setValues([
    ['offer_id', 'daily_budget', 'status'],
    [101, 30, ''],
    [102, 10, ''],
    [103, 20, ''],
  ]);
  rt.meter.reset();
  const grid = (a1 = 'A1:C5') => budgets.getRange(a1).getValues();
  return {rt, events, budgets, grid};
}

type JobResult = {before: unknown[][]; after: unknown[][]};

describe('rt.collaborator.duringFetch', () => {
  it('acts once, after the request reached the server and before the job sees the answer', () => {
    const {rt, events, grid} = setup();
    let runs = 0;
    rt.collaborator.duringFetch(1, (ss, person) => {
      runs++;
      events.push('collaborator');
      person.typeInto('Budgets', 'B3', '11');
      ss.sheet('Budgets')!
        .getRange('A5:B5')
        .setValues([[104, 40]]);
    });
    const result = rt.run('job') as JobResult;
    expect(runs).toBe(1);
    expect(events).toEqual([
      'wire /one',
      'collaborator',
      'wire /two',
      'wire /three',
    ]);
    expect(result.before).toEqual([
      [101, 30],
      [102, 10],
      [103, 20],
    ]);
    expect(result.after).toEqual([
      [101, 30],
      [102, 11],
      [103, 20],
    ]);
    expect(grid()).toEqual([
      ['offer_id', 'daily_budget', 'status'],
      [101, 30, 'sent'],
      [102, 11, ''],
      [103, 20, ''],
      [104, 40, ''],
    ]);
    expect(rt.collaborator.pending()).toBe(0);
    rt.run('job');
    expect(runs).toBe(1);
  });

  it('counts fetch and fetchAll calls from the next one after it was scheduled', () => {
    const {rt, events} = setup();
    rt.run('job');
    rt.collaborator.duringFetch(2, () => events.push('collaborator'));
    events.length = 0;
    rt.run('job');
    expect(events).toEqual([
      'wire /one',
      'wire /two',
      'wire /three',
      'collaborator',
    ]);
    expect(() => rt.collaborator.duringFetch(0, () => {})).toThrow(
      'duringFetch: nth counts from 1, not 0',
    );
  });

  it('is not metered: the job costs the same calls and time with or without it', () => {
    const quiet = setup();
    quiet.rt.run('job');
    const busy = setup();
    busy.rt.collaborator.duringFetch(1, (ss, person) => {
      person.sortRows('Budgets', {column: 'daily_budget'});
      person.insertRows('Budgets', 2, 1);
      person.deleteRows('Budgets', 2, 1);
      person.typeInto('Budgets', 'B2', '5');
      ss.getSheetByName('History')!
        .getRange('A1:B1')
        .setValues([['x', 'y']]);
      ss.getSheetByName('History')!.getRange('A1:B1').getValues();
    });
    busy.rt.run('job');
    expect(busy.rt.snapshot()).toEqual(quiet.rt.snapshot());
    expect(busy.grid('A2:B4')).toEqual([
      [102, 5],
      [103, 20],
      [101, 30],
    ]);
  });

  it('is not undone when the execution is killed; the job’s queued writes are', () => {
    const {rt, grid} = setup();
    rt.collaborator.duringFetch(1, (_ss, person) => {
      person.typeInto('Budgets', 'C3', 'typed by Ann');
      person.typeInto('Budgets', 'B4', '99');
    });
    expect(() => rt.run('jobThenRunsOut')).toThrow(EXCEEDED_TIME);
    expect(grid('A2:C4')).toEqual([
      [101, 30, ''],
      [102, 10, 'typed by Ann'],
      [103, 99, ''],
    ]);
  });

  it('reports an action that throws when the execution ends, whatever the job made of it', () => {
    const {rt} = setup();
    rt.collaborator.duringFetch(1, ss => {
      ss.sheet('Nope')!.getRange('A1');
    });
    expect(() => rt.run('job')).toThrow(TypeError);
    expect(rt.executions[rt.executions.length - 1].error).toBeUndefined();
  });
});

describe('rt.collaborator.afterRead', () => {
  it('acts once, right after the job’s next read of that sheet', () => {
    const {rt, grid} = setup();
    rt.collaborator.afterRead('History', () => {
      throw new Error('History is never read');
    });
    rt.collaborator.afterRead('Budgets', (_ss, person) =>
      person.deleteRows('Budgets', 2, 1),
    );
    grid();
    expect(rt.collaborator.pending()).toBe(2);
    const result = rt.run('job') as JobResult;
    expect(result.before).toEqual([
      [101, 30],
      [102, 10],
      [103, 20],
    ]);
    expect(result.after).toEqual([
      [102, 10],
      [103, 20],
      ['', ''],
    ]);
    expect(rt.collaborator.pending()).toBe(1);
  });
});

describe('rt.collaborator.duringAlert', () => {
  it('acts once while the next alert is open, before its answer returns', () => {
    const {rt} = setup();
    rt.collaborator.duringAlert((_ss, person) =>
      person.typeInto('Budgets', 'B3', '1'),
    );
    rt.ui.answerNextAlert('YES');
    const result = rt.run('asks') as JobResult & {yes: boolean};
    expect(result.yes).toBe(true);
    expect(result.before[1]).toEqual([102, 10]);
    expect(result.after[1]).toEqual([102, 1]);
    expect(rt.ui.alerts()).toHaveLength(1);
    expect(rt.collaborator.pending()).toBe(0);
  });
});

describe('the collaborator’s acts, outside any execution', () => {
  it('sorts the data rows by a header, moving values, formulas (as copies), formats and notes', () => {
    const {rt, budgets} = setup();
    budgets.getRange('D1').setValue('total_budget');
    budgets
      .getRange('D2:D4')
      .setFormulas([['=B2*10'], ['=B3*10'], ['=$B$4*10']]);
    budgets.getRange('A3').setNote('ask Ann').setBackground('#ffff00');
    rt.meter.reset();
    rt.collaborator.sortRows('Budgets', {
      column: 'daily_budget',
      ascending: false,
    });
    expect(rt.snapshot().counts).toEqual({});
    expect(budgets.getRange('A1:D4').getValues()).toEqual([
      ['offer_id', 'daily_budget', 'status', 'total_budget'],
      [101, 30, '', 300],
      [103, 20, '', 100],
      [102, 10, '', 100],
    ]);
    expect(budgets.getRange('D2:D4').getFormulas()).toEqual([
      ['=B2*10'],
      ['=$B$4*10'],
      ['=B4*10'],
    ]);
    // $B$4 stays: after the sort it reads 102's budget, as in Sheets.
    expect(budgets.getRange('D3').getValue()).toBe(100);
    expect(budgets.getRange('A4').getNote()).toBe('ask Ann');
    expect(budgets.getRange('A4').getBackground()).toBe('#ffff00');
    rt.collaborator.sortRows(budgets, {column: 1});
    expect(budgets.getRange('A2:A4').getValues().flat()).toEqual([
      101, 102, 103,
    ]);
    expect(() => rt.collaborator.sortRows('Budgets', {column: 'geo'})).toThrow(
      'no column "geo" in row 1 of Budgets',
    );
  });

  it('inserts and deletes rows as a person: formulas follow, nothing is counted', () => {
    const {rt, budgets} = setup();
    budgets.getRange('D4').setFormula('=B4*10');
    rt.meter.reset();
    rt.collaborator.deleteRows('Budgets', 3);
    expect(budgets.getRange('D3').getFormula()).toBe('=B3*10');
    rt.collaborator.insertRows('Budgets', 2, 2);
    expect(budgets.getRange('D5').getFormula()).toBe('=B5*10');
    expect(budgets.getRange('D5').getValue()).toBe(200);
    const counts = rt.snapshot().counts;
    expect(counts['Sheet.insertRowsBefore']).toBeUndefined();
    expect(counts['Sheet.deleteRows']).toBeUndefined();
    expect(() => rt.collaborator.typeInto('Nope', 'A1', 'x')).toThrow(
      'the collaborator finds no sheet "Nope"',
    );
  });
});
