import {
  ReadBackVerdict,
  changedFields,
  historyOutcomeOf,
  judgeReadBack,
  marksAfter,
  stepAfter,
} from '../../../src/rules/read-back';

const E = 'null';
const FIELDS = ['tracking_method', 'click_url', 'support_server_click'];
const SENT = [['"APPSFLYER"', '"https://t.example/new"', '"YES"']];
const BEFORE = [['"APPSFLYER"', '"https://t.example/old"', '"NO"']];
const CHANGED = ['click_url', 'support_server_click'];

/** A one-row record whose write changed click_url and support_server_click. */
function judge(
  server: string[] | undefined,
  blind: string[] = [],
  changed = CHANGED,
) {
  return judgeReadBack({
    fields: FIELDS,
    empty: E,
    sent: SENT,
    before: BEFORE,
    changed,
    server: server && {rows: [server], blind: new Set(blind)},
  });
}

describe('judgeReadBack, a one-row record', () => {
  it('applied: every changed field reads back as sent', () => {
    expect(judge(SENT[0])).toEqual({verdict: 'applied'});
  });

  it('applied: a field changed on the server since the pull, but not by this write, tells nothing', () => {
    expect(
      judge(['"TUNE"', '"https://t.example/new"', '"YES"'], [], ['click_url']),
    ).toEqual({verdict: 'applied'});
  });

  it('not applied: a changed field still as it was (a write is applied whole or not at all)', () => {
    expect(judge(BEFORE[0])).toEqual({verdict: 'not applied'});
    expect(judge(['"APPSFLYER"', '"https://t.example/x"', '"NO"'])).toEqual({
      verdict: 'not applied',
    });
  });

  it('changed: neither as sent nor as it was, naming what the server shows', () => {
    expect(
      judge(['"APPSFLYER"', '"https://t.example/new?src=x"', '"YES"']),
    ).toEqual({
      verdict: 'changed',
      shows: [{field: 'click_url', value: '"https://t.example/new?src=x"'}],
    });
  });

  it('a field the list does not return tells nothing; all of them blind: cannot tell', () => {
    const server = ['"APPSFLYER"', '"https://t.example/new"', E];
    expect(judge(server, ['support_server_click'])).toEqual({
      verdict: 'applied',
    });
    expect(
      judge(server, ['support_server_click'], ['support_server_click']),
    ).toEqual({
      verdict: 'cannot tell',
      because: {blind: ['support_server_click']},
    });
  });

  it('cannot tell: the list did not return the record', () => {
    expect(judge(undefined)).toEqual({
      verdict: 'cannot tell',
      because: {unlisted: true},
    });
  });

  it('a record with no row before (an offer made with no tracking) reads as empty fields', () => {
    const verdict = (server: string[]) =>
      judgeReadBack({
        fields: FIELDS,
        empty: E,
        sent: SENT,
        before: [],
        changed: FIELDS,
        server: {rows: [server], blind: new Set(['support_server_click'])},
      });
    expect(verdict([E, E, E])).toEqual({verdict: 'not applied'});
    expect(verdict(['"APPSFLYER"', '"https://t.example/new"', E])).toEqual({
      verdict: 'applied',
    });
  });
});

describe('judgeReadBack, a record of many rows', () => {
  const rows = [
    ['"US"', '1'],
    ['"GB"', '2'],
  ];
  const whole = (server: string[][]) =>
    judgeReadBack({
      fields: ['country_code', 'daily_cap'],
      empty: E,
      sent: rows,
      before: [['"US"', '1']],
      changed: [],
      server: {rows: server, blind: new Set()},
    });

  it('is judged whole: as sent, applied; else not applied', () => {
    expect(whole(rows)).toEqual({verdict: 'applied'});
    expect(whole([['"US"', '1']])).toEqual({verdict: 'not applied'});
    expect(whole([['"US"', '3']])).toEqual({verdict: 'not applied'});
  });
});

describe('stepAfter', () => {
  const cases: Array<[ReadBackVerdict, boolean, string]> = [
    [{verdict: 'applied'}, false, 'confirm'],
    [{verdict: 'applied'}, true, 'confirm'],
    [{verdict: 'not applied'}, false, 'send again'],
    [{verdict: 'not applied'}, true, 'send next time'],
    [{verdict: 'changed', shows: []}, false, 'keep as sent'],
    [
      {verdict: 'cannot tell', because: {blind: ['support_server_click']}},
      false,
      'send next time',
    ],
    [
      {verdict: 'cannot tell', because: {unlisted: true}},
      false,
      'read next time',
    ],
    [
      {verdict: 'cannot tell', because: {unread: 'reading it back failed (x)'}},
      true,
      'read next time',
    ],
  ];
  it.each(cases)('%j (sent again: %s) -> %s', (verdict, again, step) => {
    expect(stepAfter(verdict, again)).toBe(step);
  });
});

describe('marksAfter', () => {
  const write = {sent: SENT, before: BEFORE};
  it('takes what was sent as the record once confirmed or kept; keeps the mark only while nothing is told', () => {
    expect(marksAfter('confirm', write)).toEqual({rows: SENT});
    expect(marksAfter('keep as sent', write)).toEqual({rows: SENT});
    expect(marksAfter('send next time', write)).toEqual({rows: BEFORE});
    expect(marksAfter('send again', write)).toEqual({rows: BEFORE});
    expect(marksAfter('read next time', write)).toEqual({
      rows: BEFORE,
      unknown: SENT,
    });
  });
});

describe('changedFields', () => {
  it('names the fields whose texts differ, an absent row as empty', () => {
    expect(changedFields(FIELDS, E, SENT, BEFORE)).toEqual(CHANGED);
    expect(changedFields(FIELDS, E, [['"X"', E, E]], [])).toEqual([
      'tracking_method',
    ]);
  });
});

describe('historyOutcomeOf', () => {
  it('OK once confirmed, ERROR when known not applied, UNKNOWN where the add-on cannot say', () => {
    expect(historyOutcomeOf('confirm', {verdict: 'applied'})).toBe('OK');
    expect(historyOutcomeOf('send next time', {verdict: 'not applied'})).toBe(
      'ERROR',
    );
    const blind: ReadBackVerdict = {
      verdict: 'cannot tell',
      because: {blind: ['support_server_click']},
    };
    expect(historyOutcomeOf('send next time', blind)).toBe('UNKNOWN');
    expect(
      historyOutcomeOf('keep as sent', {verdict: 'changed', shows: []}),
    ).toBe('UNKNOWN');
    expect(
      historyOutcomeOf('read next time', {
        verdict: 'cannot tell',
        because: {unlisted: true},
      }),
    ).toBe('UNKNOWN');
  });
});
