import {ChangeLog} from '../../../src/jobs/change-log';
import type {JobSummary} from '../../../src/jobs/run';
import type {HistoryChange} from '../../../src/sheets/history';
import {ScriptedTransport, fakePlatform} from '../../support/fakes';
import {MemoryWorkbook} from '../../support/workbook';

function change(record: string): HistoryChange {
  return {
    sheet: 'Budgets',
    record,
    field: 'daily_cap [ALL]',
    before: '100',
    after: '150',
    outcome: 'OK',
    message: 'Pushed.',
  };
}

const summary = {message: '1 OK.'} as JobSummary;

describe('ChangeLog', () => {
  it('flush appends the changes added since the last flush, one block each, under one change id', () => {
    const book = new MemoryWorkbook();
    const platform = fakePlatform(new ScriptedTransport(() => 'network-error'));
    const log = new ChangeLog(platform, 'pushBudgets', 'main account');
    log.add([change('1'), change('2')]);
    log.flush(book);
    const sheet = book.sheet('History')!;
    expect(book.records('History').map(r => r.record)).toEqual(['1', '2']);

    sheet.calls.length = 0;
    platform.clock.ms += 60_000;
    log.add([change('3')]);
    log.flush(book);
    log.flush(book);
    expect(sheet.calls.filter(c => c === 'write')).toEqual(['write']);

    log.add([change('4')]);
    const closed = log.close(book, summary);
    const rows = book.records('History');
    expect(rows.map(r => [r.record, r.change_id])).toEqual(
      ['1', '2', '3', '4'].map(r => [r, log.changeId]),
    );
    // A minute later, the change still has its one time, the second it started.
    expect(rows.map(r => r.time)).toEqual(rows.map(() => log.at));
    expect(closed).toEqual({...summary, changeId: log.changeId});
  });

  it('close after everything was flushed still names the change; a run that sent nothing is told nothing', () => {
    const book = new MemoryWorkbook();
    const platform = fakePlatform(new ScriptedTransport(() => 'network-error'));
    const log = new ChangeLog(platform, 'pushBudgets', 'main account');
    log.add([change('1')]);
    log.flush(book);
    expect(log.close(book, summary).changeId).toBe(log.changeId);

    const idle = new ChangeLog(platform, 'pushBudgets', 'main account');
    expect(idle.close(book, summary)).toBe(summary);
  });

  it('a History that cannot be written is said once, however many batches failed', () => {
    const book = new MemoryWorkbook();
    const own = book.insertSheet('History');
    own.write(1, 1, [['Date', 'What we did']]);
    const log = new ChangeLog(
      fakePlatform(new ScriptedTransport(() => 'network-error')),
      'pushBudgets',
      'main account',
    );
    log.add([change('1')]);
    log.flush(book);
    log.add([change('2')]);
    expect(log.close(book, summary).message).toBe(
      "1 OK. The History sheet could not be written (Row 1 of the History sheet has no change_id header, so its rows are not Offer Desk's runs: if its header row was deleted, undo that; if the sheet is your own, rename it, and the next job makes a new History sheet): this run's outcomes are in the rows' sync_message only.",
    );
  });
});
