/**
 * The add-on in a thread of its own (runtime option ownThread, for the bench's heap figure):
 * what a script sees of the services there is what it sees in the runtime's own thread, and
 * its thread's heap holds none of the runtime's stores.
 */
import {createRuntime, DEFAULT_LATENCY, Runtime} from '../../local/runtime';

/** A script touching what crosses between the threads: values, objects, errors, time. */
const SCRIPT = `
function probe() {
  var ss = SpreadsheetApp.getActive();
  var sheet = ss.getSheetByName('Sheet1');
  var error;
  try {
    Utilities.sleep(-1);
  } catch (e) {
    error = [e instanceof Error, e.name, e.message, String(e)];
  }
  var before = Date.now();
  Utilities.sleep(1500);
  var slept = Date.now() - before;
  sheet.getRange('A1:B2').setValues([[1, 'two'], [new Date(Date.UTC(2026, 0, 2)), true]]);
  var values = sheet.getRange('A1:B2').getValues();
  PropertiesService.getDocumentProperties().setProperties({a: '1', b: '2'});
  return {
    sameSheet: ss.getSheets()[0] === sheet,
    sameEnum: SpreadsheetApp.WrapStrategy.CLIP === SpreadsheetApp.WrapStrategy.CLIP,
    enumName: String(SpreadsheetApp.WrapStrategy.CLIP),
    error: error,
    slept: slept,
    now: new Date().getTime(),
    values: values.map(function (row) {
      return row.map(function (v) { return v instanceof Date ? 'date ' + v.toISOString() : v; });
    }),
    rowIsArray: values[0] instanceof Array,
    properties: PropertiesService.getDocumentProperties().getProperties(),
    digest: Utilities.computeDigest(Utilities.DigestAlgorithm.MD5, 'abc', Utilities.Charset.UTF_8).slice(0, 4),
  };
}
function readArchive() {
  var values = SpreadsheetApp.getActive().getSheetByName('Archive').getDataRange().getValues();
  // A call made while the values are held: the heap is sampled at each call.
  Logger.log(values.length);
  return values.length;
}
function churn() {
  // 40 arrays of 100,000 strings, some 6 MB each, each dropped after a call: the heap fills
  // with garbage while the script holds one array at a time.
  var total = 0;
  for (var i = 0; i < 40; i++) {
    var values = [];
    for (var j = 0; j < 100000; j++) values.push('row ' + i + ', value ' + j);
    Logger.log(values.length);
    total += values.length;
  }
  return total;
}
function fails() {
  SpreadsheetApp.getActive().getSheetByName('Sheet1').getRange(0, 1);
}
`;

function runtime(ownThread: boolean): Runtime {
  const rt = createRuntime({distDir: null, ownThread});
  rt.load(SCRIPT, 'probe.js');
  return rt;
}

describe('an add-on in a thread of its own', () => {
  const inProcess = runtime(false);
  const own = runtime(true);
  afterAll(() => own.close());

  it('sees the services, their errors and the virtual clock as in the runtime thread', () => {
    const answer = own.run('probe');
    expect(answer).toEqual(inProcess.run('probe'));
    expect(answer).toMatchObject({
      sameSheet: true,
      sameEnum: true,
      enumName: 'CLIP',
      error: [
        true,
        'Exception',
        'Invalid argument: milliseconds',
        'Exception: Invalid argument: milliseconds',
      ],
      slept: 1500 + DEFAULT_LATENCY.otherCallMs,
      values: [
        [1, 'two'],
        ['date 2026-01-02T00:00:00.000Z', true],
      ],
      rowIsArray: true,
      properties: {a: '1', b: '2'},
    });
    expect(
      own.spreadsheet.getSheetByName('Sheet1')!.getRange('B1').getValue(),
    ).toBe('two');
  });

  it('fails an execution with the Apps Script error the script did not catch', () => {
    const message = (rt: Runtime) => {
      try {
        rt.run('fails');
        return 'no error';
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    };
    expect(message(own)).toBe(message(inProcess));
    expect(own.executions.at(-1)).toMatchObject({
      functionName: 'fails',
      error: inProcess.executions.at(-1)!.error,
    });
  });

  it("reports its thread's heap: what the add-on holds, none of the runtime's sheets", () => {
    const thread = own.realm.thread!;
    thread.resetPeak();
    const idle = thread.peakHeap();
    // 200,000 cells of text in the runtime's spreadsheet, some 40 MB: not the add-on's.
    const sheet = own.spreadsheet.insertSheet('Archive');
    sheet.insertRowsAfter(sheet.getMaxRows(), 20000);
    sheet
      .getRange(1, 1, 20000, 10)
      .setValues(
        Array.from({length: 20000}, (_, r) =>
          Array.from({length: 10}, (_, c) => `archived row ${r}, column ${c}`),
        ),
      );
    own.run('probe');
    expect(idle).toBeGreaterThan(0);
    expect(thread.peakHeap() - idle).toBeLessThan(5 * 1024 * 1024);
    // Once the add-on reads them, they are its own: 200,000 strings of some 28 characters.
    thread.resetPeak();
    const before = thread.peakHeap();
    expect(own.run('readArchive')).toBe(20000);
    expect(thread.peakHeap() - before).toBeGreaterThan(8 * 1024 * 1024);
  });

  it('reports its live peak heap: what survives a collection, not the garbage V8 left', () => {
    const thread = own.realm.thread!;
    const MB = 1024 * 1024;
    thread.resetPeak();
    const idle = thread.peakHeap();
    expect(own.run('churn')).toBe(4000000);
    const inUse = thread.peakHeap() - idle;
    thread.resetPeak(1.2);
    const start = thread.peakHeap();
    expect(own.run('churn')).toBe(4000000);
    const live = thread.peakHeap() - start;
    // One array of 100,000 strings at a time, within the 20% the live peak allows.
    expect(live).toBeLessThan(20 * MB);
    expect(inUse).toBeGreaterThan(2 * live);
    expect(thread.collectCpuMs()).toBeGreaterThan(0);
    // What the script holds counts all the same.
    thread.resetPeak(1.2);
    const before = thread.peakHeap();
    expect(own.run('readArchive')).toBe(20000);
    expect(thread.peakHeap() - before).toBeGreaterThan(8 * MB);
  });
});
