import {
  OpenConditions,
  Watched,
  alertLine,
  startMs,
  watch,
} from '../../../src/jobs/refresh/alerts';

const HOUR = 3600_000;
const NOW = Date.UTC(2026, 10, 26, 12);

const running: Watched = {
  offer_name: 'spring_sale',
  status: 'RUNNING',
  offer_stop_reason: '',
  click_url_status: 'PASS',
  start_time: String((NOW - 48 * HOUR) / 1000),
};

/** One pull of offer 7 after `before`, with what is open and tracked. */
function pull(
  before: Watched | undefined,
  now: Watched,
  open: OpenConditions = {},
  tracked: Record<string, number> = {},
) {
  return watch({
    previous: before ? {'7': before} : undefined,
    current: [{id: '7', facts: now}],
    open,
    tracked,
    now: NOW,
    hours: 6,
  });
}

describe('watch: one alert when a condition appears, one when it clears', () => {
  it('a status that left RUNNING with a stop reason is one alert carrying the reason', () => {
    const stopped = {
      ...running,
      status: 'STOPPED',
      offer_stop_reason: 'INSUFFICIENT_BALANCE',
    };
    const first = pull(running, stopped);
    expect(first.alerts).toEqual([
      {
        account: 'main account',
        offerId: '7',
        offerName: 'spring_sale',
        what: 'status left RUNNING',
        before: 'RUNNING',
        after: 'STOPPED',
        reason: 'INSUFFICIENT_BALANCE',
      },
    ]);
    expect(alertLine(first.alerts[0])).toBe(
      'offer 7 (spring_sale): status left RUNNING (RUNNING → STOPPED), reason INSUFFICIENT_BALANCE',
    );
    // While it lasts: nothing more.
    const second = pull(stopped, stopped, first.open);
    expect(second.alerts).toEqual([]);
    // It clears: one row.
    const third = pull(stopped, running, second.open);
    expect(third.alerts.map(a => [a.what, a.before, a.after])).toEqual([
      ['status back to RUNNING', 'STOPPED', 'RUNNING'],
    ]);
    expect(third.open).toEqual({});
  });

  it('a stop reason that appears or changes while RUNNING is told; an unknown value is text', () => {
    const noted = {...running, offer_stop_reason: 'SOME_NEW_REASON'};
    const appeared = pull(running, noted);
    expect(appeared.alerts.map(a => [a.what, a.before, a.after])).toEqual([
      ['stop reason appeared', '', 'SOME_NEW_REASON'],
    ]);
    const changed = pull(
      noted,
      {...noted, offer_stop_reason: 'OTHER'},
      appeared.open,
    );
    expect(changed.alerts.map(a => a.what)).toEqual(['stop reason changed']);
    const cleared = pull(
      {...noted, offer_stop_reason: 'OTHER'},
      running,
      changed.open,
    );
    expect(cleared.alerts.map(a => [a.what, a.before])).toEqual([
      ['stop reason cleared', 'OTHER'],
    ]);
  });

  it('an empty, missing or null reason is no reason', () => {
    const missing: Watched = {...running};
    delete missing.offer_stop_reason;
    expect(pull(running, missing).alerts).toEqual([]);
  });

  it('tells nothing of status and reason at the first pull, nor from a pull without these facts', () => {
    const stopped = {...running, status: 'STOPPED', offer_stop_reason: 'X'};
    expect(pull(undefined, stopped).alerts).toEqual([]);
    expect(pull({offer_name: 'old'}, stopped).alerts).toEqual([]);
  });

  it('a click URL not PASS 6 hours after the add-on set it, once; then that it passed', () => {
    const failing = {...running, click_url_status: 'FAIL'};
    const early = pull(running, failing, {}, {'7': NOW - 5 * HOUR});
    expect(early.alerts).toEqual([]);
    const due = pull(running, failing, {}, {'7': NOW - 6 * HOUR});
    expect(due.alerts.map(a => [a.what, a.after])).toEqual([
      ['click URL not passed 6 hours after Offer Desk set it', 'FAIL'],
    ]);
    expect(pull(failing, failing, due.open, due.tracked).alerts).toEqual([]);
    const passed = pull(failing, running, due.open, due.tracked);
    expect(passed.alerts.map(a => a.what)).toEqual([
      'click URL passed its test',
    ]);
    expect(passed.tracked).toEqual({});
  });

  it('an offer still PENDING 6 hours after its start_time, once; then that it left PENDING', () => {
    const pending = {...running, status: 'PENDING'};
    const due = pull(pending, pending);
    expect(due.alerts.map(a => a.what)).toEqual([
      'still PENDING 6 hours after start_time',
    ]);
    // A status told for the first time reads "now", never an arrow from "(none)".
    expect(alertLine(due.alerts[0])).toBe(
      'offer 7 (spring_sale): still PENDING 6 hours after start_time (now PENDING)',
    );
    expect(pull(pending, pending, due.open).alerts).toEqual([]);
    const started = pull(pending, running, due.open);
    expect(started.alerts.map(a => [a.what, a.before, a.after])).toEqual([
      ['no longer PENDING', 'PENDING', 'RUNNING'],
    ]);
    const recent = {
      ...pending,
      start_time: String((NOW - 2 * HOUR) / 1000),
    };
    expect(pull(recent, recent).alerts).toEqual([]);
  });

  it('an offer PENDING past its start at the first pull is noted, and its end not told', () => {
    const pending = {...running, status: 'PENDING'};
    const first = pull(undefined, pending);
    expect(first.alerts).toEqual([]);
    expect(pull(pending, pending, first.open).alerts).toEqual([]);
    expect(pull(pending, running, first.open)).toMatchObject({
      alerts: [],
      open: {},
    });
  });

  it('forgets the conditions of an offer no longer listed', () => {
    const open = {'8 stopped': {since: NOW, value: 'STOPPED'}};
    expect(pull(running, running, open).open).toEqual({});
  });
});

describe('startMs', () => {
  it('reads Unix seconds, milliseconds and dates', () => {
    expect(startMs('1767225600')).toBe(1767225600000);
    expect(startMs('1767225600000')).toBe(1767225600000);
    expect(startMs('2026-01-01T00:00:00Z')).toBe(1767225600000);
    expect(startMs('')).toBeUndefined();
    expect(startMs('soon')).toBeUndefined();
  });
});
