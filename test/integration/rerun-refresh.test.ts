/**
 * "A re-run always moves forward", for the refreshes: Apps Script stops a refresh after it
 * wrote one sheet and before it wrote the next, and a push follows. The built dist/Code.js in
 * the local runtime against the emulator.
 */
import {EXCEEDED_TIME, type Runtime} from '../../local/runtime';
import {budgetsPulled} from '../support/history';
import {
  columnLetter,
  offerDesk,
  recordsOf,
  valuesOf,
} from '../support/offer-desk';

describe('refreshAll stopped between two sheets', () => {
  it('the sheet written has its state with it: the next push takes none of the server values for edits', () => {
    const {rt, emulator} = offerDesk({offers: 3, campaigns: 3});
    rt.call('refreshAll');
    const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
      c => c.maintain_by === 'ADV',
    )!;
    emulator.updateCampaign(campaign.campaign_id, {
      description: 'changed on the server',
    });
    // Apps Script stops the run right after it read the Offers sheet (Campaigns is written).
    rt.collaborator.afterRead('Offers', () => rt.clock.advance(7 * 60_000));
    expect(() => rt.call('refreshAll')).toThrow(EXCEEDED_TIME);
    const row = recordsOf(rt, 'Campaigns').find(
      r => r.campaign_id === campaign.campaign_id,
    )!;
    expect(row).toMatchObject({
      description: 'changed on the server',
      sync_status: '',
    });

    emulator.clearRequests();
    expect(rt.call('pushCampaigns')).toMatchObject({
      ok: 0,
      invalid: 0,
      error: 0,
      requests: 0,
    });
    expect(emulator.requests).toEqual([]);
    expect(
      recordsOf(rt, 'Campaigns').find(
        r => r.campaign_id === campaign.campaign_id,
      ),
    ).toMatchObject({sync_status: '', sync_message: ''});
    // The refresh run again finishes, and still nothing is an edit.
    expect(rt.call('refreshAll')).toMatchObject({edited: 0});
    emulator.clearRequests();
    expect(rt.call('pushCampaigns')).toMatchObject({requests: 0});
  });
});

/** An offer's one budget group, ALL, with this daily_cap. */
const allGroup = (cap: string) => [
  {
    target_geo: 'ALL',
    total_budget: '1000',
    daily_cap_type: 'BUDGET' as const,
    daily_cap: cap,
  },
];

describe('a refresh after a push stopped while its writes were out', () => {
  const history = (rt: Runtime) =>
    (rt.spreadsheet.getSheetByName('History')
      ? recordsOf(rt, 'History')
      : []
    ).map(r => [r.job, r.record, r.field, r.before, r.after, r.outcome]);

  /**
   * Two budgets pulled, one daily_cap typed, the push killed while its PUT is out (the server
   * takes it and answers after the execution's end); `meanwhile` runs once the server has it.
   */
  function pushKilled(
    meanwhile: (desk: ReturnType<typeof budgetsPulled>) => void = () => {},
  ) {
    const desk = budgetsPulled(2);
    const {rt, emulator, ids, cap} = desk;
    cap(ids[0], '250');
    emulator.faults.add({kind: 'slow', method: 'PUT', latencyMs: 400000});
    rt.collaborator.duringFetch(1, () => meanwhile(desk));
    expect(() => rt.call('pushBudgets')).toThrow(EXCEEDED_TIME);
    emulator.faults.clear();
    expect(history(rt)).toEqual([]);
    return desk;
  }

  it('records in History the change the server took, and the row and state are the server’s', () => {
    const {rt, emulator, ids, budget} = pushKilled();
    expect(emulator.offerView(ids[0])!.budget).toMatchObject([
      {daily_cap: '250'},
    ]);

    rt.call('refreshOffers');

    expect(history(rt)).toEqual([
      ['refreshOffers', String(ids[0]), 'daily_cap [ALL]', '100', '250', 'OK'],
    ]);
    expect(String(recordsOf(rt, 'History')[0].message)).toBe(
      'A push sent it and was stopped (or lost its answer) before reading it back; this refresh found it on the server.',
    );
    expect(budget(ids[0])).toMatchObject({daily_cap: 250, sync_status: ''});
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({requests: 0});
    // Told once: the next refresh records nothing more.
    rt.call('refreshOffers');
    expect(history(rt)).toHaveLength(1);
  });

  it('records a change the server does not have as not applied, and the next push sends it', () => {
    const {rt, emulator, ids, budget} = pushKilled(({emulator, ids}) =>
      emulator.updateOffer(ids[0], {budget: allGroup('100')}),
    );

    rt.call('refreshOffers');

    expect(history(rt)).toEqual([
      [
        'refreshOffers',
        String(ids[0]),
        'daily_cap [ALL]',
        '100',
        '250',
        'ERROR',
      ],
    ]);
    expect(budget(ids[0])).toMatchObject({
      daily_cap: 250,
      sync_status: 'EDITED',
    });
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, requests: 1});
    expect(emulator.offerView(ids[0])!.budget).toMatchObject([
      {daily_cap: '250'},
    ]);
  });
});

describe('a refresh stopped inside one sheet’s write', () => {
  it('leaves no row the server wrote to pass for an edit: the next push sends only what a person typed', () => {
    const {rt, emulator, ids, rowOf, budget} = budgetsPulled(2);
    emulator.updateOffer(ids[0], {budget: allGroup('150')});
    emulator.updateOffer(ids[1], {budget: allGroup('170')});
    const column = valuesOf(rt, 'Budgets')[0].indexOf('daily_cap');
    // A person types over the cell the refresh writes, so it reads Budgets again once it has
    // written the rest; Apps Script stops the run at that read, the rest sent, the state not.
    rt.collaborator.afterRead('Budgets', (_, c) => {
      c.typeInto('Budgets', `${columnLetter(column)}${rowOf(ids[0])}`, '500');
      const stopOnceWritten = () =>
        rt.collaborator.afterRead('Budgets', () => {
          if (budget(ids[1]).daily_cap === 170) rt.clock.advance(7 * 60_000);
          else stopOnceWritten();
        });
      stopOnceWritten();
    });
    expect(() => rt.call('refreshOffers')).toThrow(EXCEEDED_TIME);
    expect(budget(ids[0]).daily_cap).toBe(500);
    expect(budget(ids[1])).toMatchObject({daily_cap: 170, sync_status: ''});

    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(
      emulator.requests
        .filter(r => r.method === 'PUT')
        .map(r => (r.body as {offer_id: number}).offer_id),
    ).toEqual([ids[0]]);
    expect(budget(ids[1])).toMatchObject({daily_cap: 170, sync_status: ''});
  });
});
