import {RevertInput, planRevert} from '../../../src/jobs/history/revert-plan';
import {BUDGETS_PUSH} from '../../../src/jobs/push/push-budgets';
import {trackingPush} from '../../../src/jobs/push/push-tracking';
import {canonical} from '../../../src/sheets/codec';
import {contentOf} from '../../../src/sheets/rows';
import {SheetSchema, editableOf} from '../../../src/sheets/schema';
import {BUDGETS} from '../../../src/sheets/schemas/budgets';
import {OFFERS} from '../../../src/sheets/schemas/offers';

const ZONE = {utcOffsetMinutes: () => 0};

/** A record's content as a push reads it, from cells by header. */
function content(
  schema: SheetSchema<never>,
  rows: Array<Record<string, string>>,
): string[][] {
  return contentOf(
    rows.map(cells =>
      editableOf(schema).map(c => canonical(c, cells[c.header] ?? '', ZONE)),
    ),
  );
}

const group = (country_code: string, daily_cap: string) => ({
  country_code,
  daily_cap_type: 'BUDGET',
  daily_cap,
  total_budget: '1000',
});

/** History fields of a group, as a push records one added (or removed, `removed`). */
function groupFields(geo: string, cap: string, removed = false) {
  return Object.entries(group(geo, cap)).map(([header, value]) => ({
    field: `${header} [${geo}]`,
    before: removed ? value : '',
    after: removed ? '' : value,
  }));
}

/** The split of ALL into US+GB, as History holds it. */
const split = [
  ...groupFields('ALL', '100', true),
  ...groupFields('US', '60'),
  ...groupFields('GB', '70'),
];

function budgetInput(
  now: Array<Record<string, string>>,
  sheet = now,
  more: Partial<RevertInput> = {},
): RevertInput {
  return {
    schema: BUDGETS as never,
    rules: BUDGETS_PUSH.rules,
    changeId: 'c1',
    change: {account: '', id: '1001', outcome: 'OK', fields: split},
    base: {
      rows: content(BUDGETS as never, now),
      facts: {target_geo: 'US,GB,CA'},
    },
    content: content(BUDGETS as never, sheet),
    said: {status: 'OK', message: 'Pushed.'},
    ...more,
  };
}

describe('planRevert', () => {
  it('puts the groups before a split back as EDITED', () => {
    const now = [group('US', '60'), group('GB', '70')];
    const input = budgetInput(now);
    input.base!.facts = {target_geo: 'US,GB'};
    expect(planRevert(input)).toEqual({
      kind: 'put',
      content: content(BUDGETS as never, [group('ALL', '100')]),
      status: 'EDITED',
      message: expect.stringMatching(/^Reverts change c1 \(/),
      withdrawn: false,
    });
  });

  it('a group the server added since: CONFLICT naming it, no content', () => {
    const now = [group('US', '60'), group('GB', '70'), group('CA', '80')];
    expect(planRevert(budgetInput(now))).toEqual({
      kind: 'mark',
      status: 'CONFLICT',
      message:
        "Not reverted: the server's budget of offer_id 1001 has CA since change c1 (as last refreshed), a group the change did not set: the groups before it beside it would be refused by a push (country_code: either one ALL budget or budgets per geo, not both). Your rows are unchanged; edit them by hand if you still want the old budget.",
    });
  });

  it('keeps what a CONFLICT row said when it marks it again', () => {
    const now = [group('US', '60'), group('GB', '70'), group('CA', '80')];
    const said = {status: 'CONFLICT', message: 'Changed on the server too.'};
    const plan = planRevert(budgetInput(now, now, {said}));
    expect(plan).toMatchObject({kind: 'mark', status: 'CONFLICT'});
    expect((plan as {message: string}).message).toMatch(
      / Before this revert the row said CONFLICT: Changed on the server too\.$/,
    );
  });

  it('values the API refused at the last push are replaced, the reason kept; other edits are CONFLICT', () => {
    const now = [group('US', '60'), group('GB', '70')];
    const refused = [group('US', '9'), group('GB', '70')];
    const said = {status: 'ERROR', message: 'code 10000 daily_cap too low'};
    const input = budgetInput(now, refused, {said});
    input.base!.facts = {target_geo: 'US,GB'};
    input.base!.refused = content(BUDGETS as never, refused);
    expect(planRevert(input)).toMatchObject({
      kind: 'put',
      status: 'EDITED',
      message: expect.stringContaining(
        'It replaces values the API refused at the last push (code 10000 daily_cap too low).',
      ),
    });
    delete input.base!.refused;
    expect(planRevert(input)).toMatchObject({
      kind: 'mark',
      status: 'CONFLICT',
      message: expect.stringContaining('has edits not pushed yet'),
    });
  });

  it('the first tracking of an offer cannot be taken away: the row says so, its status kept', () => {
    const set = {
      tracking_method: 'ADJUST',
      click_url: 'https://t.example.test/a',
      support_server_click: 'NO',
    };
    const plan = planRevert({
      schema: OFFERS as never,
      rules: trackingPush('').rules,
      changeId: 'c2',
      change: {
        account: '',
        id: '7',
        outcome: 'OK',
        fields: Object.entries(set).map(([field, after]) => ({
          field,
          before: '',
          after,
        })),
      },
      base: {rows: content(OFFERS as never, [set])},
      content: content(OFFERS as never, [set]),
      said: {status: 'OK', message: 'Pushed.'},
    });
    expect(plan).toEqual({
      kind: 'mark',
      status: 'OK',
      message:
        'Not reverted: change c2 set the first tracking of offer_id 7 (its tracking_method was empty before), and the API cannot remove a tracking link. To change it, type another tracking_method and click_url and push them.',
    });
  });
});
