/**
 * A refresh's plan (src/jobs/refresh/refresh-cost.ts refreshPlan) against the time its
 * execution has left: the accounts that fit it, or, after other work, none until the next run.
 */
import {
  PACE_MEMO,
  RefreshWaitsError,
  TimeLeft,
  refreshPlan,
} from '../../../src/jobs/refresh/refresh-cost';
import {EVERY_ACCOUNT} from '../../../src/jobs/settings-store';
import {recordKey} from '../../../src/sheets/accounts';
import {StateBook} from '../../../src/state/book';
import {rememberTurns} from '../../../src/state/refresh-turns-memo';
import {MemoryWorkbook} from '../../support/workbook';

const OFFERS = [{cost: {sheets: ['Offers'], pageSize: 50}}];
const AFTER = 'the scheduled changes';

/** The main account and sub-accounts a and b, an offer each, pulled at 100 s a round trip. */
function agency(): StateBook {
  const book = StateBook.open(new MemoryWorkbook());
  const records = Object.fromEntries(
    ['', 'a', 'b'].map(account => [recordKey(account, '1'), {rows: []}]),
  );
  book.set('Offers', {accounts: ['', 'a', 'b'], records});
  book.setMemo(PACE_MEMO, {roundTripMs: 100_000});
  return book;
}

const plan = (time: TimeLeft, acting = EVERY_ACCOUNT) =>
  refreshPlan(agency(), OFFERS, acting, ['a', 'b'], time);

/** What the plan lists and leaves out, as the refresh reads it. */
const outline = (time: TimeLeft, acting?: string) => {
  const {only, left} = plan(time, acting);
  return {only, left: Object.fromEntries(left)};
};

describe('the plan of a refresh of every account (about 200 s; the main account 100 s)', () => {
  it('lists every account where they fit the time left', () => {
    expect(outline({ms: 200_100, after: AFTER})).toEqual({
      only: undefined,
      left: {},
    });
  });

  it('after other work, lists the accounts that fit what it left and says so for each other', () => {
    const why =
      'the scheduled changes left 150.0 s of this run, and with it, refreshing every account (3 accounts) would take about 200.0 s at the last measured pace: the next run takes it before the accounts this one refreshed';
    expect(outline({ms: 150_000, after: AFTER})).toEqual({
      only: [''],
      left: {a: why, b: why},
    });
  });

  it('after other work that left less than one account takes, waits for the next run', () => {
    expect(() => plan({ms: 60_000, after: AFTER})).toThrow(
      new RefreshWaitsError(
        'The refresh did not start: the scheduled changes left 60.0 s of this run, and refreshing every account (3 accounts) would take about 200.0 s at the last measured pace; the next run refreshes.',
      ),
    );
    expect(() => plan({ms: -1_000, after: AFTER})).toThrow(
      new RefreshWaitsError(
        'The refresh did not start: the scheduled changes took the time of this run, and the next run refreshes.',
      ),
    );
    expect(() => plan({ms: 60_000, after: AFTER}, 'a')).toThrow(
      'The refresh did not start: the scheduled changes left 60.0 s of this run, and refreshing the sub-account a would take about 100.0 s at the last measured pace; the next run refreshes.',
    );
  });

  it('with the run to itself, runs one account at the default pace where none fits the last', () => {
    expect(outline({ms: 60_000}).only).toEqual(['']);
  });
});

describe('the plan of a refresh of every account, in turn', () => {
  /**
   * The main account with 60 offers (2 pages), sub-accounts a and b with one, at 60 s a round
   * trip: every account about 180 s (the keys, the first pages, the main account's second), the main
   * account alone 120 s, the sub-accounts without it 120 s.
   */
  function turns(queue: string[]): StateBook {
    const book = StateBook.open(new MemoryWorkbook());
    const keys = [
      ...Array.from({length: 60}, (_, i) => recordKey('', String(i))),
      recordKey('a', '1'),
      recordKey('b', '1'),
    ];
    book.set('Offers', {
      accounts: ['', 'a', 'b'],
      records: Object.fromEntries(keys.map(key => [key, {rows: []}])),
    });
    book.setMemo(PACE_MEMO, {roundTripMs: 60_000});
    rememberTurns(book, 'Offers', queue);
    return book;
  }
  const why =
    'the scheduled changes left 150.0 s of this run, and with it, refreshing every account (3 accounts) would take about 180.1 s at the last measured pace: the next run takes it before the accounts this one refreshed';
  const outlined = (queue: string[]) => {
    const {only, left, order} = refreshPlan(
      turns(queue),
      OFFERS,
      EVERY_ACCOUNT,
      ['a', 'b'],
      {ms: 150_000, after: AFTER},
    );
    return {only, left: [...left], order};
  };

  it('takes the accounts refreshed longest ago first, each that fits beside those before it', () => {
    expect(outlined(['a', 'b', ''])).toEqual({
      only: ['a', 'b'],
      left: [['', why]],
      order: ['a', 'b', ''],
    });
  });

  it('takes the main account first where none took a turn yet', () => {
    expect(outlined([])).toEqual({
      only: [''],
      left: [
        ['a', why],
        ['b', why],
      ],
      order: ['', 'a', 'b'],
    });
  });

  it('passes over an account that does not fit beside those before it: it keeps its turn', () => {
    expect(outlined(['b', '', 'a'])).toEqual({
      only: ['b', 'a'],
      left: [['', why]],
      order: ['b', '', 'a'],
    });
  });
});
