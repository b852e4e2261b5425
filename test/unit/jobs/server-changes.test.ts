/**
 * The judge of changes made outside Offer Desk (issue 35): what it tells and what it leaves,
 * from a sheet's state before a refresh and the state the refresh pulled.
 */
import {recordKey} from '../../../src/sheets/accounts';
import {EMPTY} from '../../../src/sheets/rows';
import {OFFERS} from '../../../src/sheets/schemas/offers';
import type {RecordState, SheetState} from '../../../src/sheets/pulled';
import {
  OwnWrites,
  serverChanges,
  serverChangesSaid,
  sinceOf,
  serverChangeMessage,
} from '../../../src/jobs/refresh/server-changes';

const t = (text: string) => JSON.stringify(text);
/** An Offers record: its tracking (method, click_url), its facts. */
const offer = (
  url: string,
  facts: Record<string, string> = {
    status: 'RUNNING',
    bid_rate: '1.5',
    target_geo: 'US',
  },
): RecordState => ({rows: [[t('APPSFLYER'), t(url), EMPTY]], facts});
const state = (
  records: Record<string, RecordState>,
  accounts = [''],
): SheetState => ({accounts, records});
const judge = (
  previous: SheetState | undefined,
  now: SheetState,
  options: {accounts?: string[]; own?: OwnWrites; out?: string[]} = {},
) =>
  serverChanges({
    schema: OFFERS,
    previous,
    now,
    accounts: options.accounts ?? [''],
    inFlight: new Set(options.out),
    ownWrites: () => options.own ?? new Map(),
    message: () => serverChangeMessage('2026-12-07 09:00:00'),
  });
const A = recordKey('', '7');
const told = (r: ReturnType<typeof judge>) =>
  r.changes.map(c => [c.account, c.record, c.field, c.before, c.after]);

describe('serverChanges', () => {
  it('tells each field that differs from what Offer Desk last knew, watched facts included', () => {
    const found = judge(
      state({[A]: offer('https://a.test/1')}),
      state({
        [A]: offer('https://a.test/2', {
          status: 'STOPPED',
          bid_rate: '1.5',
          target_geo: 'US',
        }),
      }),
    );
    expect(told(found)).toEqual([
      [
        'main account',
        '7',
        'click_url',
        'https://a.test/1',
        'https://a.test/2',
      ],
      ['main account', '7', 'status', 'RUNNING', 'STOPPED'],
    ]);
    expect(found.changes[0]).toMatchObject({
      job: 'changed on the server',
      outcome: 'SEEN',
      sheet: 'Offers',
    });
    expect(found.accounts).toEqual(['']);
  });

  it('tells nothing without an earlier pull of the account, of a new record, or of a write in flight', () => {
    const now = state({[A]: offer('https://a.test/2')});
    expect(told(judge(undefined, now))).toEqual([]);
    expect(told(judge(state({}, ['x']), now))).toEqual([]);
    expect(told(judge(state({}), now))).toEqual([]);
    const was = state({[A]: offer('https://a.test/1')});
    expect(told(judge(was, now, {out: [A]}))).toEqual([]);
  });

  it('judges only the accounts refreshed', () => {
    const sub = recordKey('s', '8');
    const previous = state(
      {[A]: offer('https://a.test/1'), [sub]: offer('https://a.test/1')},
      ['', 's'],
    );
    const now = state(
      {[A]: offer('https://a.test/2'), [sub]: offer('https://a.test/3')},
      ['', 's'],
    );
    expect(told(judge(previous, now, {accounts: ['s']}))).toEqual([
      [
        'sub-account s',
        '8',
        'click_url',
        'https://a.test/1',
        'https://a.test/3',
      ],
    ]);
  });

  it("leaves what Offer Desk wrote, a stopped refresh's content, the server's form of a link and a fact not recorded", () => {
    const own: OwnWrites = new Map([
      [A, new Map([['click_url', new Set(['https://a.test/2'])]])],
    ]);
    const now = state({[A]: offer('https://a.test/2')});
    expect(
      told(judge(state({[A]: offer('https://a.test/1')}), now, {own})),
    ).toEqual([]);
    const writing = {
      ...offer('https://a.test/1'),
      writing: offer('https://a.test/2').rows,
    };
    expect(told(judge(state({[A]: writing}), now))).toEqual([]);
    expect(told(judge(state({[A]: offer('HTTPS://A.Test/2')}), now))).toEqual(
      [],
    );
    expect(
      told(judge(state({[A]: offer('https://a.test/2', {})}), now)),
    ).toEqual([]);
    // Another path is another link.
    expect(
      told(judge(state({[A]: offer('https://a.test/Two')}), now)),
    ).toHaveLength(1);
  });

  it('counts a record whose earlier state cannot be read, and tells none of it', () => {
    const broken = {facts: {}} as unknown as RecordState;
    const found = judge(
      state({[A]: broken}),
      state({[A]: offer('https://a.test/2')}),
    );
    expect(found).toMatchObject({changes: [], unreadable: 1, accounts: []});
    expect(serverChangesSaid(0, 1)).toBe(
      ' 1 record had a last refresh Offer Desk could not read: not compared for changes on the server this time.',
    );
    expect(serverChangesSaid(7, 0)).toBe(
      ' 7 fields changed on the server, see History.',
    );
  });

  it('words since when, and the sidebar reads it back', () => {
    expect(sinceOf(serverChangeMessage('2026-12-07 09:00:00'))).toBe(
      '2026-12-07 09:00:00',
    );
    expect(sinceOf(serverChangeMessage(undefined))).toBeUndefined();
  });
});
