/**
 * The outbox (src/state/outbox.ts): what is posted before a request leaves reads back from the
 * state sheet as posted, an answer settles it, and an earlier release's marks are read in once.
 */
import {recordKey} from '../../../src/sheets/accounts';
import {StateBook} from '../../../src/state/book';
import {OUTBOX_MEMO, Outbox, writeKey} from '../../../src/state/outbox';
import {MemoryWorkbook} from '../../support/workbook';

const CREATE = {
  kind: 'offer create' as const,
  job: 'createOffers',
  account: 'demo_sub_b',
  record: 'spring_us',
  request: {campaign_id: 7},
  time: '2026-03-01T09:00:00.000Z',
};

/** The book saved, then read as the next run reads it. */
function reopened(workbook: MemoryWorkbook, book: StateBook): Outbox {
  book.save();
  return Outbox.of(StateBook.open(workbook));
}

describe('the outbox', () => {
  it('keeps each posted request as posted until its answer settles it; a request posted again takes its place', () => {
    const workbook = new MemoryWorkbook();
    const book = StateBook.open(workbook);
    const outbox = Outbox.of(book);
    outbox.post([CREATE, {...CREATE, account: '', record: 'spring_gb'}]);
    outbox.post([{...CREATE, time: '2026-03-02T09:00:00.000Z'}]);

    const next = reopened(workbook, book);
    expect(next.entries('offer create')).toEqual([
      {...CREATE, account: '', record: 'spring_gb'},
      {...CREATE, time: '2026-03-02T09:00:00.000Z'},
    ]);
    next.settle({kind: 'offer create', account: '', record: 'spring_gb'});
    expect(next.entries('offer create')).toEqual([
      {...CREATE, time: '2026-03-02T09:00:00.000Z'},
    ]);
    expect(next.entries('upload')).toEqual([]);
  });

  it("reads a kind's earlier marks in once, keeping an entry already there", () => {
    const workbook = new MemoryWorkbook();
    const book = StateBook.open(workbook);
    const outbox = Outbox.of(book);
    outbox.post([CREATE]);
    const marks = jest.fn(() => [
      {...CREATE, time: ''},
      {...CREATE, record: 'autumn_us', time: ''},
    ]);
    outbox.upgrade('offer create', marks);
    outbox.upgrade('offer create', marks);
    expect(marks).toHaveBeenCalledTimes(1);

    const next = reopened(workbook, book);
    next.upgrade('offer create', marks);
    expect(marks).toHaveBeenCalledTimes(1);
    expect(next.entries('offer create').map(e => [e.record, e.time])).toEqual([
      ['spring_us', CREATE.time],
      ['autumn_us', ''],
    ]);
  });

  it("takes an earlier release's `unknown` marks out of the sheets' states, and tells them by record key", () => {
    const workbook = new MemoryWorkbook();
    const old = StateBook.open(workbook);
    old.set('Budgets', {
      accounts: ['demo_sub_b'],
      records: {
        [recordKey('demo_sub_b', '5')]: {
          rows: [['"ALL"', '100']],
          unknown: [['"ALL"', '200']],
        },
        [recordKey('demo_sub_b', '6')]: {rows: [['"ALL"', '100']]},
      },
    });
    old.save();

    const book = StateBook.open(workbook);
    const outbox = Outbox.of(book);
    expect(outbox.writesOf('Budgets')).toEqual(
      new Map([[recordKey('demo_sub_b', '5'), [['"ALL"', '200']]]]),
    );
    expect(outbox.entries('write')).toEqual([
      {
        ...writeKey('Budgets', 'demo_sub_b', '5'),
        job: '',
        request: {sheet: 'Budgets', sent: [['"ALL"', '200']]},
        time: '',
      },
    ]);
    expect(
      Object.values(book.get('Budgets')!.records).map(r => r.unknown),
    ).toEqual([undefined, undefined]);
    expect(outbox.writesOf('Offers')).toEqual(new Map());
  });

  it('drops an entry a person typed over in the state sheet, keeping the others', () => {
    const workbook = new MemoryWorkbook();
    const book = StateBook.open(workbook);
    book.setMemo(OUTBOX_MEMO, {
      entries: [CREATE, 42, {kind: 'write', account: '', record: 'x'}],
      upgraded: [],
    });
    expect(Outbox.of(book).entries('offer create')).toEqual([CREATE]);
    expect(Outbox.of(book).entries('write')).toEqual([]);
  });

  it("keeps a scheduled change's write beside a push's write of the same record: a push reads only its own, a refresh counts both out", () => {
    const workbook = new MemoryWorkbook();
    const book = StateBook.open(workbook);
    const outbox = Outbox.of(book);
    const push = {
      ...writeKey('Budgets', '', '7'),
      kind: 'write' as const,
      job: 'pushBudgets',
      request: {sheet: 'Budgets', sent: [['170']]},
      time: '2026-03-01T09:00:00.000Z',
    };
    const scheduled = {
      ...push,
      job: 'scheduled push',
      change: '20260301-080000-abcd',
      request: {sheet: 'Budgets', sent: [['150']]},
    };
    outbox.post([scheduled]);
    outbox.post([push]);

    const next = reopened(workbook, book);
    expect(next.entries('write')).toEqual([scheduled, push]);
    // Each found by its own key: the scheduled write by its change.
    const key = writeKey('Budgets', '', '7');
    expect(next.find('write', {...key, change: scheduled.change})).toEqual(
      scheduled,
    );
    expect(next.find('write', key)).toEqual(push);
    expect(next.find('write', writeKey('Budgets', '', '8'))).toBeUndefined();
    expect(next.writesOf('Budgets')).toEqual(
      new Map([[recordKey('', '7'), [['170']]]]),
    );
    expect(next.recordsOut('Budgets')).toEqual(new Set([recordKey('', '7')]));
    // A push's answer settles its own entry, never the scheduled change's.
    next.settle(writeKey('Budgets', '', '7'));
    expect(next.entries('write')).toEqual([scheduled]);
    expect(next.writesOf('Budgets')).toEqual(new Map());
  });
});
