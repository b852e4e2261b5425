/**
 * Issue 19, cases 6 and 7: revert is a plan per record, under the rules of a push. A record
 * whose content before the change a push would refuse is CONFLICT or says why, nothing of it
 * rewritten; a row the API refused is reverted, keeping the API's reason. The built
 * dist/Code.js in the local Apps Script runtime against the Open API emulator.
 */
import {DEMO_ACCOUNTS, Emulator} from '../../local/emulator';
import {
  budgetsPulled,
  capSent,
  clickUrlPushed,
  splitPushed,
} from '../support/history';
import {
  EMULATOR_URL,
  columnLetter,
  offersPulled,
  recordsOf,
  sheetOf,
  typeInto,
  valuesOf,
} from '../support/offer-desk';

interface Summary {
  message: string;
  ok: number;
  error: number;
  skipped: number;
  edited?: number;
  conflict?: number;
  changeId?: string;
}

const writes = (emulator: Emulator) =>
  emulator.requests
    .filter(r => r.method === 'PUT' || r.method === 'POST')
    .map(r => [r.method, r.path.replace('/api/open/v3/', ''), r.body]);

/** The PUT that puts an offer's one ALL budget back as budgetsPulled pulled it. */
const budgetBack = (id: number) => ['PUT', 'offer/budget', capSent(id, 100)];

/** A sheet's cells without its sync columns: what a revert may not rewrite. */
const valuesWithoutSync = (
  rt: Parameters<typeof valuesOf>[0],
  sheet: string,
) => {
  const [headers, ...rows] = valuesOf(rt, sheet);
  const keep = headers.map(
    h => !['sync_status', 'sync_message', 'synced_at'].includes(String(h)),
  );
  return rows.map(row => row.filter((_, k) => keep[k]));
};

const group = (geo: string, cap: string, total = '1000') => ({
  target_geo: geo,
  total_budget: total,
  daily_cap_type: 'BUDGET' as const,
  daily_cap: cap,
});

describe('revert under the rules of a push', () => {
  it('a split of ALL into US+GB, the server adding a CA group since: CONFLICT naming CA, every row of the offer untouched, the push after sends nothing', () => {
    const {rt, emulator, ids, rowOf} = budgetsPulled(2, {}, 'US,GB');
    const [id, other] = ids;
    const pushed = splitPushed(rt, id, rowOf(id));
    expect(pushed.ok).toBe(2);
    emulator.updateOffer(id, {
      target_geo: 'US,GB,CA',
      budget: [group('US', '60'), group('GB', '70', '500'), group('CA', '80')],
    });
    rt.call('refreshOffers');
    const cells = valuesWithoutSync(rt, 'Budgets');

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted).toMatchObject({edited: 0, conflict: 3});
    expect(valuesWithoutSync(rt, 'Budgets')).toEqual(cells);
    const rows = recordsOf(rt, 'Budgets').filter(r => r.offer_id === id);
    expect(rows.map(r => r.country_code).sort()).toEqual(['CA', 'GB', 'US']);
    for (const row of rows)
      expect(row).toMatchObject({
        sync_status: 'CONFLICT',
        sync_message: `Not reverted: the server's budget of offer_id ${id} has CA since change ${pushed.changeId} (as last refreshed), a group the change did not set: the groups before it beside it would be refused by a push (country_code: either one ALL budget or budgets per geo, not both). Your rows are unchanged; edit them by hand if you still want the old budget.`,
      });
    expect(
      recordsOf(rt, 'Budgets').find(r => r.offer_id === other),
    ).toMatchObject({daily_cap: 100, sync_status: ''});

    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, error: 0});
    expect(writes(emulator)).toEqual([]);
  });

  it('the first tracking set on an offer that had none: says it cannot be reverted, stages nothing, the push after sends nothing', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled(k =>
      k === 0 ? {tracking_method: '', click_url: ''} : {},
    );
    const [id] = ids;
    expect(offer(id)).toMatchObject({tracking_method: '', click_url: ''});
    typeInto(rt, 'Offers', offerRow(id), 'tracking_method', 'ADJUST');
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      'https://t.example.test/first',
    );
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'NO');
    const pushed = rt.call('pushTracking') as Summary;
    expect(pushed.ok).toBe(1);
    const cells = valuesWithoutSync(rt, 'Offers');

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted).toMatchObject({edited: 0, conflict: 0});
    expect(reverted.message).toBe(
      'Nothing put back; 1 record cannot be reverted: see sync_message. Nothing was sent.',
    );
    expect(valuesWithoutSync(rt, 'Offers')).toEqual(cells);
    expect(offer(id)).toMatchObject({
      tracking_method: 'ADJUST',
      click_url: 'https://t.example.test/first',
      sync_status: 'OK',
      sync_message: `Not reverted: change ${pushed.changeId} set the first tracking of offer_id ${id} (its tracking_method was empty before), and the API cannot remove a tracking link. To change it, type another tracking_method and click_url and push them.`,
    });

    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 0, error: 0});
    expect(writes(emulator)).toEqual([]);
  });

  it('over a row the API refused since: reverts it as EDITED keeping the API reason, and the push after sends the revert', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(1);
    const [id] = ids;
    cap(id, '150');
    const first = rt.call('pushBudgets') as Summary;
    expect(first.ok).toBe(1);
    emulator.faults.add({
      kind: 'busy',
      method: 'PUT',
      path: '/api/open/v3/offer/budget',
      count: 1,
      code: 10000,
      msg: 'daily_cap is above the account limit',
    });
    cap(id, '999');
    const refused = rt.call('pushBudgets') as Summary;
    expect(refused.error).toBe(1);
    const reason = String(budget(id).sync_message);
    expect(budget(id).sync_status).toBe('ERROR');

    const reverted = rt.call('revertChange', first.changeId) as Summary;
    expect(reverted).toMatchObject({edited: 1, conflict: 0});
    expect(budget(id)).toMatchObject({
      daily_cap: 100,
      sync_status: 'EDITED',
      sync_message: `Reverts change ${first.changeId} (daily_cap [ALL]: 150 back to 100): not pushed yet. It replaces values the API refused at the last push (${reason}). Preview, then push to send it.`,
    });

    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});
    expect(writes(emulator)).toEqual([budgetBack(id)]);
    expect(budget(id)).toMatchObject({daily_cap: 100, sync_status: 'OK'});
    // A refresh leaves nothing stuck.
    rt.call('refreshOffers');
    expect(budget(id)).toMatchObject({daily_cap: 100, sync_status: 'OK'});
  });
});

describe('revert moves rows with their formulas (issue 19 case 1)', () => {
  it('a split of ALL into US+GB reverted: the GB row is deleted, the formula of the offer below still points at its own row, and the push sends only the reverted offer', () => {
    const {rt, emulator, ids, rowOf, budget} = budgetsPulled(3, {}, 'US,GB');
    const [id, below] = ids;
    // A row inserted right below the offer's, as a person splits a budget.
    sheetOf(rt, 'Budgets').insertRowAfter(rowOf(id));
    const pushed = splitPushed(rt, id, rowOf(id), rowOf(id) + 1);
    expect(pushed.ok).toBe(2);
    rt.call('refreshOffers');
    // The offer's two rows together, the next offer right below them.
    const rows = recordsOf(rt, 'Budgets').map(r => r.offer_id);
    expect(rows.slice(0, 3)).toEqual([id, id, below]);
    const headers = valuesOf(rt, 'Budgets')[0].map(String);
    const cap = columnLetter(headers.indexOf('daily_cap'));
    const total = headers.indexOf('total_budget') + 1;
    const at = rowOf(below);
    expect(at).toBe(4);
    typeInto(rt, 'Budgets', at, 'total_budget', `=${cap}${at}*10`);
    expect(budget(below).total_budget).toBe(1000);

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.edited).toBe(1);
    expect(recordsOf(rt, 'Budgets').map(r => r.offer_id)).toEqual(ids);
    expect(rowOf(below)).toBe(3);
    expect(sheetOf(rt, 'Budgets').getRange(3, total).getFormula()).toBe(
      `=${cap}3*10`,
    );
    expect(budget(below)).toMatchObject({total_budget: 1000, sync_status: ''});
    expect(budget(id)).toMatchObject({
      country_code: 'ALL',
      daily_cap: 100,
      total_budget: 1000,
      sync_status: 'EDITED',
    });

    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});
    expect(writes(emulator)).toEqual([budgetBack(id)]);
  });
});

describe('revert by a second editor connected with other keys', () => {
  it('changes no row pulled under the first editor keys, and says so', () => {
    const {rt, ids, cap, budget} = budgetsPulled(1, {
      users: ['ana@example.com', 'bo@example.com'],
    });
    cap(ids[0], '150');
    const pushed = rt.call('pushBudgets') as Summary;
    rt.setUser('bo@example.com');
    rt.call('saveSettings', {
      baseUrl: EMULATOR_URL,
      accessKey: DEMO_ACCOUNTS.subA.accessKey,
      apiKey: DEMO_ACCOUNTS.subA.apiKey,
    });
    const cells = valuesOf(rt, 'Budgets');

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    const mine = `api.emulator.test, access key …${DEMO_ACCOUNTS.main.accessKey.slice(-4)}`;
    const theirs = `api.emulator.test, access key …${DEMO_ACCOUNTS.subA.accessKey.slice(-4)}`;
    expect(reverted.message).toBe(
      `Nothing put back. Nothing was sent. Budgets was refreshed with other keys (${mine}), but you are connected with ${theirs}: nothing was sent. Connect with those keys to push what was edited under them, or run "Refresh offers and budgets" with yours first. Change ${pushed.changeId} was not put back there.`,
    );
    expect(valuesOf(rt, 'Budgets')).toEqual(cells);
    expect(budget(ids[0])).toMatchObject({daily_cap: 150, sync_status: 'OK'});
  });
});

describe('revert while another editor works in the sheet', () => {
  // Two offers: Budgets (11 columns) is then read in one call, which the person's edit follows.
  it('Budgets sorted between the revert read and its write: each offer gets its own values back', () => {
    const {rt, ids, cap, budget} = budgetsPulled(2);
    ids.forEach((id, k) => cap(id, String(150 + k)));
    const pushed = rt.call('pushBudgets') as Summary;
    rt.collaborator.afterRead('Budgets', (_, person) =>
      person.sortRows('Budgets', {column: 'offer_id', ascending: false}),
    );

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.edited).toBe(2);
    expect(recordsOf(rt, 'Budgets').map(r => r.offer_id)).toEqual(
      [...ids].reverse(),
    );
    for (const id of ids)
      expect(budget(id)).toMatchObject({
        daily_cap: 100,
        sync_status: 'EDITED',
        sync_message: `Reverts change ${pushed.changeId} (daily_cap [ALL]: ${150 + ids.indexOf(id)} back to 100): not pushed yet. Preview, then push to send it.`,
      });
  });

  it('a row deleted meanwhile is not written elsewhere, and the result says to revert again', () => {
    const {rt, ids, cap, rowOf, budget} = budgetsPulled(2);
    ids.forEach((id, k) => cap(id, String(150 + k)));
    const pushed = rt.call('pushBudgets') as Summary;
    // The first row: the other moves up into its place.
    const row = rowOf(ids[0]);
    rt.collaborator.afterRead('Budgets', (_, person) =>
      person.deleteRows('Budgets', row),
    );

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.message).toBe(
      `1 row put back as EDITED: preview and push to send it. Nothing was sent. 1 row of Budgets moved away or was deleted while the revert ran: its revert was not written. Revert ${pushed.changeId} again.`,
    );
    expect(recordsOf(rt, 'Budgets').map(r => r.offer_id)).toEqual([ids[1]]);
    expect(budget(ids[1])).toMatchObject({
      daily_cap: 100,
      sync_status: 'EDITED',
    });
  });
});

describe('revert of a record a push would refuse whatever its values', () => {
  it('an offer in two rows (a row copied): says why on both, deletes neither', () => {
    const {rt, emulator, offerRow, offer, id, pushed} = clickUrlPushed();
    expect(pushed.ok).toBe(1);
    // The user copies the offer's row below the others.
    const copy = valuesOf(rt, 'Offers').length + 1;
    const headers = valuesOf(rt, 'Offers')[0].map(String);
    const row = valuesOf(rt, 'Offers')[offerRow(id) - 1];
    sheetOf(rt, 'Offers').insertRowsAfter(copy - 1, 1);
    sheetOf(rt, 'Offers').getRange(copy, 1, 1, headers.length).setValues([row]);
    const cells = valuesWithoutSync(rt, 'Offers');

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.message).toBe(
      'Nothing put back; 1 record cannot be reverted: see sync_message. Nothing was sent.',
    );
    expect(valuesWithoutSync(rt, 'Offers')).toEqual(cells);
    const rows = recordsOf(rt, 'Offers').filter(r => r.offer_id === id);
    expect(rows).toHaveLength(2);
    for (const r of rows)
      expect(r).toMatchObject({
        click_url: 'https://t.example.test/new',
        sync_message: `Not reverted: a push would refuse offer_id ${id} whatever its values (offer_id ${id} is in rows ${offerRow(id)}, ${copy}: keep one row per offer_id). Your rows are unchanged.`,
      });
    expect(offer(id).sync_status).toBe('OK');
    emulator.clearRequests();
    // The push refuses both rows, as it did before the revert: nothing is sent.
    rt.call('pushTracking');
    expect(writes(emulator)).toEqual([]);
  });
});
