import type {Campaign, Offer} from '../../../src/api/types';
import {
  PulledRecord,
  mergeRecords,
  mergeServerRecords,
} from '../../../src/sheets/merge';
import {encodeRecords, serverRecords} from '../../../src/sheets/server-records';
import type {SheetSchema} from '../../../src/sheets/schema';
import {
  BUDGETS,
  BudgetRow,
  budgetRows,
} from '../../../src/sheets/schemas/budgets';
import {CAMPAIGNS} from '../../../src/sheets/schemas/campaigns';
import {OFFERS} from '../../../src/sheets/schemas/offers';
import {StateBook} from '../../../src/state/book';
import {STATUS_COLORS} from '../../../src/sheets/status';
import {Table, openTable} from '../../../src/sheets/table';
import {SheetWriter, wouldKeepTyping} from '../../../src/sheets/writer';
import {campaign, offer} from '../../support/records';
import {MemoryWorkbook} from '../../support/workbook';

const NOW = new Date('2026-03-01T12:00:00Z');

/** One refresh of one sheet, as the refresh job runs it. */
function pull<S>(
  book: MemoryWorkbook,
  schema: SheetSchema<S>,
  records: Array<Omit<PulledRecord<S>, 'account'>>,
  account = '',
) {
  const state = StateBook.open(book);
  const table = openTable(book, schema, {create: true})!;
  const merged = mergeRecords({
    table,
    records: records.map(r => ({...r, account})),
    previous: state.get(schema.name),
    accounts: [account],
    label: (a: string) => (a === '' ? 'main account' : `sub-account ${a}`),
    context: book,
    now: NOW,
  });
  const writer = new SheetWriter(table, () => NOW.getTime());
  writer.replaceRows(merged.rows, merged.sources);
  writer.flush();
  state.set(schema.name, merged.state);
  state.save();
  return merged;
}

const campaigns = (list: Campaign[]) =>
  list.map(c => ({sources: [c], facts: {maintain_by: c.maintain_by}}));
const budgets = (
  list: Offer[],
): Array<Omit<PulledRecord<BudgetRow>, 'account'>> =>
  list.map(o => ({
    sources: budgetRows(o),
    facts: {target_geo: o.target_geo, maintain_by: o.maintain_by},
  }));

describe('a first refresh', () => {
  it('creates the sheet with headers, notes, colours, formats, dropdowns and a frozen row', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    const sheet = book.sheet('Campaigns')!;
    const headers = book.grid('Campaigns')[0];
    expect(headers).toEqual([
      ...CAMPAIGNS.columns.map(c => c.header),
      'sync_status',
      'sync_message',
      'synced_at',
    ]);
    expect(sheet.frozenRows).toBe(1);
    const at = (h: string) => headers.indexOf(h) + 1;
    expect(sheet.cell(1, at('campaign_name')).background).toBe('#d9ead3');
    expect(sheet.cell(1, at('status')).background).toBe('#efefef');
    expect(sheet.cell(1, at('campaign_name')).note).toBe(
      'Name, unique, at most 100 characters.\nEditable: Push campaigns sends, for each campaign, only the fields you changed here (PUT campaign).',
    );
    expect(sheet.cell(1, at('promotion_type')).note).toContain(
      'Values: APP, WEBSITE.',
    );
    expect(sheet.cell(2, at('promotion_type')).dropdown).toEqual([
      'APP',
      'WEBSITE',
    ]);
    expect(sheet.cell(500, at('is_coppa')).dropdown).toEqual(['YES', 'NO']);
    expect(sheet.cell(2, at('status')).dropdown).toBeUndefined();
    expect(sheet.cell(2, at('min_version')).format).toBe('@');
    expect(sheet.cell(2, at('campaign_id')).format).toBe('0');
    expect(sheet.cell(2, at('app_size')).format).toBe('General');
    expect(sheet.cell(2, at('synced_at')).format).toBe('yyyy-mm-dd hh:mm:ss');
    // The headers, then each run of columns no push sends (the id column stays open).
    const data = (from: string, to: string) =>
      expect.objectContaining({
        row: 2,
        column: at(from),
        rows: 999,
        columns: at(to) - at(from) + 1,
      });
    expect(sheet.protections).toEqual([
      expect.objectContaining({
        row: 1,
        column: 1,
        rows: 1,
        columns: headers.length,
      }),
      data('account', 'account'),
      data('alive_in_store', 'preview_url'),
      data('platform', 'platform'),
      data('maintain_by', 'synced_at'),
    ]);
    expect(sheet.widths.get(at('campaign_id'))).toBe(101);
    expect(sheet.widths.get(at('description'))).toBe(220);
    expect(sheet.widths.get(at('sync_message'))).toBe(300);
    expect(book.records('Campaigns')[0]).toMatchObject({
      campaign_id: 1,
      campaign_name: 'Campaign 1',
      app_size: 12.5,
      min_version: '5.0',
      sync_status: '',
    });
  });

  it('writes API text that looks like a formula as text', () => {
    const book = new MemoryWorkbook();
    pull(
      book,
      CAMPAIGNS,
      campaigns([
        campaign(1, {
          description: '=HYPERLINK("http://x","y")',
          product_name: '+1 boost',
        }),
      ]),
    );
    const sheet = book.sheet('Campaigns')!;
    const headers = book.grid('Campaigns')[0];
    const cell = sheet.cell(2, headers.indexOf('description') + 1);
    expect(cell).toMatchObject({
      value: '=HYPERLINK("http://x","y")',
      formula: '',
    });
    expect(book.records('Campaigns')[0].product_name).toBe('+1 boost');
  });

  it('leaves a valid empty sheet with headers when there is nothing to list', () => {
    const book = new MemoryWorkbook();
    const merged = pull(book, CAMPAIGNS, []);
    expect(book.grid('Campaigns')).toHaveLength(1);
    expect(book.grid('Campaigns')[0][0]).toBe('account');
    expect(merged.counts.records).toBe(0);
  });
});

describe('a later refresh', () => {
  it('takes server changes into rows nobody edited', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2)]));
    pull(
      book,
      CAMPAIGNS,
      campaigns([campaign(1, {campaign_name: 'Renamed'}), campaign(2)]),
    );
    expect(book.records('Campaigns').map(r => r.campaign_name)).toEqual([
      'Renamed',
      'Campaign 2',
    ]);
  });

  it('keeps an unpushed edit and marks it EDITED, read-only columns still updated', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    book.edit('Campaigns', 0, 'description', 'New text');
    const merged = pull(
      book,
      CAMPAIGNS,
      campaigns([campaign(1, {status: 'PAUSED'})]),
    );
    expect(book.records('Campaigns')[0]).toMatchObject({
      description: 'New text',
      status: 'PAUSED',
      sync_status: 'EDITED',
      sync_message: 'Edited here, not pushed yet.',
      synced_at: NOW,
    });
    expect(merged.counts.edited).toBe(1);
    const headers = book.grid('Campaigns')[0];
    expect(
      book.sheet('Campaigns')!.cell(2, headers.indexOf('sync_status') + 1)
        .background,
    ).toBe(STATUS_COLORS.EDITED);
  });

  it('marks CONFLICT when the server changed the edited record, showing the server value', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    book.edit('Campaigns', 0, 'description', 'Mine');
    const merged = pull(
      book,
      CAMPAIGNS,
      campaigns([campaign(1, {description: 'Theirs'})]),
    );
    expect(book.records('Campaigns')[0]).toMatchObject({
      description: 'Mine',
      sync_status: 'CONFLICT',
      sync_message:
        "Changed on the server too; the server has: description = Theirs. A push sends your values; type the server's to keep them.",
    });
    expect(merged.notes).toEqual([
      {
        row: 2,
        status: 'CONFLICT',
        message: expect.stringContaining('description = Theirs'),
      },
    ]);
    // Next refresh: still edited, the server unchanged since: the CONFLICT stays.
    pull(book, CAMPAIGNS, campaigns([campaign(1, {description: 'Theirs'})]));
    expect(book.records('Campaigns')[0]).toMatchObject({
      description: 'Mine',
      sync_status: 'CONFLICT',
    });
  });

  it('clears the mark once the user typed what the server has', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    book.edit('Campaigns', 0, 'description', 'Theirs');
    pull(book, CAMPAIGNS, campaigns([campaign(1, {description: 'Theirs'})]));
    expect(book.records('Campaigns')[0]).toMatchObject({
      description: 'Theirs',
      sync_status: '',
    });
  });

  it('keeps user columns with their record when the server reorders, adds and deletes records', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2), campaign(3)]));
    const sheet = book.sheet('Campaigns')!;
    const note = sheet.grid()[0].length + 1;
    sheet.type(1, note, 'my note');
    sheet.type(2, note, 'one');
    sheet.type(3, note, 'two');
    sheet.type(4, note, '=A4*2');
    pull(book, CAMPAIGNS, campaigns([campaign(4), campaign(3), campaign(1)]));
    const rows = book.grid('Campaigns');
    expect(rows.map(r => [r[1], r[note - 1]])).toEqual([
      ['campaign_id', 'my note'],
      [1, 'one'],
      [3, '#ERROR!'],
      [4, ''],
    ]);
    // The rows stay where they are and the deleted record's row is deleted: the add-on never
    // rewrites the formula, Sheets adjusts it (this stand-in does not: the runtime does).
    expect(sheet.cell(3, note).formula).toBe('=A4*2');
    expect(sheet.calls).toContain('deleteRows');
  });

  it('drops the rows of deleted records, clearing what is left below', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2), campaign(3)]));
    const merged = pull(book, CAMPAIGNS, campaigns([campaign(3)]));
    expect(
      book
        .grid('Campaigns')
        .slice(1)
        .map(r => r[1]),
    ).toEqual([3]);
    expect(merged.counts).toMatchObject({removed: 2, records: 1});
  });

  it('quotes only the start of a long server value in a CONFLICT message', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    book.edit('Campaigns', 0, 'description', 'Mine');
    const theirs = `Theirs ${'x'.repeat(3990)}`;
    pull(book, CAMPAIGNS, campaigns([campaign(1, {description: theirs})]));
    expect(book.records('Campaigns')[0].sync_message).toBe(
      `Changed on the server too; the server has: description = Theirs ${'x'.repeat(30)}... (3997 characters). A push sends your values; type the server's to keep them.`,
    );
  });

  it('keeps an edited row of a record the API no longer lists, as CONFLICT', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2)]));
    book.edit('Campaigns', 1, 'campaign_name', 'Keep me');
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    expect(book.records('Campaigns')[1]).toMatchObject({
      campaign_id: 2,
      campaign_name: 'Keep me',
      sync_status: 'CONFLICT',
      sync_message:
        "The API no longer lists campaign_id 2 for the main account (deleted on the server, or no longer this account's): your unpushed edit is kept; delete the row if it is no longer needed.",
    });
  });

  it('keeps rows without an id, and a second row of a campaign, as INVALID', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    const sheet = book.sheet('Campaigns')!;
    sheet.type(3, 3, 'typed without id');
    sheet.type(4, 2, 1);
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    const rows = book.records('Campaigns');
    expect(
      rows.map(r => [r.campaign_id, r.sync_status, r.sync_message]),
    ).toEqual([
      [
        1,
        'INVALID',
        'campaign_id 1 is in rows 2, 4: keep one row per campaign_id.',
      ],
      [
        '',
        'INVALID',
        "campaign_id is empty: rows here are matched with the API's records by campaign_id; fill it or delete the row.",
      ],
      [
        1,
        'INVALID',
        'campaign_id 1 is in rows 2, 4: keep one row per campaign_id.',
      ],
    ]);
  });

  it('writes nothing when nothing changed', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2)]));
    const sheet = book.sheet('Campaigns')!;
    sheet.calls.length = 0;
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2)]));
    // The formulas of the editable columns, in one read (a formula there may be kept).
    expect(sheet.calls).toEqual(['readValues', 'readFormulas']);
  });

  it('puts a deleted column back at the end and leaves the user columns alone', () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    const sheet = book.sheet('Campaigns')!;
    const statusAt = book.grid('Campaigns')[0].indexOf('status') + 1;
    sheet.type(1, statusAt, 'my column');
    sheet.type(2, statusAt, 'kept');
    pull(book, CAMPAIGNS, campaigns([campaign(1, {status: 'PAUSED'})]));
    const row = book.records('Campaigns')[0];
    expect(row['my column']).toBe('kept');
    expect(row.status).toBe('PAUSED');
    expect(book.grid('Campaigns')[0].at(-1)).toBe('status');
  });

  it("leaves another account's rows as they are, edits and all, and judges them against that account's pull once it is refreshed again", () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2), campaign(3)]));
    book.edit('Campaigns', 0, 'description', 'Mine');
    book.edit('Campaigns', 1, 'description', 'Mine too');
    const before = book.grid('Campaigns').slice(1, 4);
    const away = pull(book, CAMPAIGNS, campaigns([campaign(8)]), 'sub1');
    expect(book.grid('Campaigns').slice(1, 4)).toEqual(before);
    expect(
      book.records('Campaigns').map(r => [r.account, r.campaign_id]),
    ).toEqual([
      ['(main account)', 1],
      ['(main account)', 2],
      ['(main account)', 3],
      ['sub1', 8],
    ]);
    expect(away.counts).toMatchObject({edited: 0, added: 1, removed: 0});
    pull(
      book,
      CAMPAIGNS,
      campaigns([
        campaign(1),
        campaign(2, {description: 'Theirs'}),
        campaign(3),
      ]),
    );
    expect(
      book
        .records('Campaigns')
        .map(r => [r.account, r.campaign_id, r.sync_status]),
    ).toEqual([
      ['(main account)', 1, 'EDITED'],
      ['(main account)', 2, 'CONFLICT'],
      ['(main account)', 3, ''],
      ['sub1', 8, ''],
    ]);
  });

  it("tells two accounts' records of one id apart by the account cell", () => {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1)]));
    pull(
      book,
      CAMPAIGNS,
      campaigns([campaign(1, {description: 'Sub'})]),
      'sub1',
    );
    book.edit('Campaigns', 1, 'description', 'Sub edited');
    pull(book, CAMPAIGNS, campaigns([campaign(1, {description: 'Main now'})]));
    expect(
      book
        .records('Campaigns')
        .map(r => [r.account, r.description, r.sync_status]),
    ).toEqual([
      ['(main account)', 'Main now', ''],
      ['sub1', 'Sub edited', ''],
    ]);
  });
});

describe('Offers', () => {
  it('keeps support_server_click, which the offers list does not return', () => {
    const book = new MemoryWorkbook();
    pull(book, OFFERS, [{sources: [offer(7)]}]);
    expect(book.records('Offers')[0].support_server_click).toBe('');
    book.edit('Offers', 0, 'support_server_click', 'YES');
    pull(book, OFFERS, [{sources: [offer(7)]}]);
    expect(book.records('Offers')[0]).toMatchObject({
      support_server_click: 'YES',
      sync_status: 'EDITED',
    });
  });

  it('shows every field of 2.3 in its column', () => {
    const book = new MemoryWorkbook();
    pull(book, OFFERS, [
      {sources: [offer(7, {end_time: 1769904000, include_ta_id: [5, 6]})]},
    ]);
    expect(book.records('Offers')[0]).toMatchObject({
      offer_id: 7,
      start_time: new Date(1767225600 * 1000),
      end_time: new Date(1769904000 * 1000),
      target_geo: 'US,GB',
      bid_rate_by_location: '[{"country_code":"US","bid_rate":"2.000"}]',
      budget:
        '[{"target_geo":"ALL","total_budget":"1000","daily_cap_type":"BUDGET","daily_cap":"100"}]',
      custom_ad_schedule: '{"1":"0,1,2"}',
      target_app: '{"switch":0,"agg_id":[],"package":[]}',
      include_ta_id: '5,6',
      click_url_status: 'PASS',
    });
  });
});

/** Offer 1 with a US group (cap 50) and a GB group (cap `gbCap`). */
const splitOffer = (gbCap: string) =>
  offer(1, {
    budget: [
      {
        target_geo: 'US',
        total_budget: '1',
        daily_cap_type: 'BUDGET',
        daily_cap: '50',
      },
      {
        target_geo: 'GB',
        total_budget: '2',
        daily_cap_type: 'BUDGET',
        daily_cap: gbCap,
      },
    ],
  });

describe('Budgets', () => {
  it('gives each budget group a row, and an offer without a budget one empty row', () => {
    const book = new MemoryWorkbook();
    pull(
      book,
      BUDGETS,
      budgets([
        offer(1, {
          budget: [
            {
              target_geo: 'US',
              total_budget: 'OPEN',
              daily_cap_type: 'BUDGET',
              daily_cap: '60',
            },
            {
              target_geo: 'GB',
              total_budget: '500',
              daily_cap_type: 'CONVERSION',
              daily_cap: 'OPEN',
            },
          ],
        }),
        offer(2, {budget: []}),
      ]),
    );
    expect(
      book
        .grid('Budgets')
        .slice(1)
        .map(r => r.slice(1, 9)),
    ).toEqual([
      [1, 'offer_1', 'US,GB', 'USD', 'US', 'BUDGET', 60, 'OPEN'],
      [1, 'offer_1', 'US,GB', 'USD', 'GB', 'CONVERSION', 'OPEN', 500],
      [2, 'offer_2', 'US,GB', 'USD', '', '', '', ''],
    ]);
  });

  it('keeps an edited group (a row added) for every row, and takes a clean one from the server', () => {
    const book = new MemoryWorkbook();
    pull(book, BUDGETS, budgets([offer(1), offer(2)]));
    const sheet = book.sheet('Budgets')!;
    book.edit('Budgets', 0, 'country_code', 'US');
    sheet.type(4, 2, 1);
    sheet.type(4, 6, 'GB');
    sheet.type(4, 7, 'BUDGET');
    sheet.type(4, 8, 80);
    sheet.type(4, 9, 'OPEN');
    const merged = pull(
      book,
      BUDGETS,
      budgets([
        offer(1),
        offer(2, {
          budget: [
            {
              target_geo: 'ALL',
              total_budget: '900',
              daily_cap_type: 'BUDGET',
              daily_cap: '90',
            },
          ],
        }),
      ]),
    );
    expect(
      book
        .grid('Budgets')
        .slice(1)
        .map(r => r.slice(1, 11)),
    ).toEqual([
      [
        1,
        'offer_1',
        'US,GB',
        'USD',
        'US',
        'BUDGET',
        100,
        1000,
        'ADV',
        'EDITED',
      ],
      [2, 'offer_2', 'US,GB', 'USD', 'ALL', 'BUDGET', 90, 900, 'ADV', ''],
      [
        1,
        'offer_1',
        'US,GB',
        'USD',
        'GB',
        'BUDGET',
        80,
        'OPEN',
        'ADV',
        'EDITED',
      ],
    ]);
    expect(merged.counts.edited).toBe(1);
  });

  it('fills a renamed daily_cap column back from the server row of the same group; only the typed edit is one', () => {
    const book = new MemoryWorkbook();
    const split = splitOffer('60');
    pull(book, BUDGETS, budgets([split, offer(2)]));
    const sheet = book.sheet('Budgets')!;
    sheet.type(1, 8, 'my cap');
    book.edit('Budgets', 1, 'total_budget', 7);
    const merged = pull(book, BUDGETS, budgets([split, offer(2)]));
    expect(
      book
        .records('Budgets')
        .map(r => [
          r.country_code,
          r.total_budget,
          r.daily_cap,
          r['my cap'],
          r.sync_status,
        ]),
    ).toEqual([
      ['US', 1, 50, 50, 'EDITED'],
      ['GB', 7, 60, 60, 'EDITED'],
      ['ALL', 1000, 100, 100, ''],
    ]);
    expect(merged.counts.edited).toBe(1);
  });

  it('keeps user cells with the group of the same country_code when the server reorders groups', () => {
    const book = new MemoryWorkbook();
    const split = splitOffer('50');
    pull(book, BUDGETS, budgets([split]));
    const sheet = book.sheet('Budgets')!;
    sheet.type(1, 12, 'note');
    sheet.type(3, 12, 'about GB');
    pull(
      book,
      BUDGETS,
      budgets([offer(1, {budget: [...split.budget].reverse()})]),
    );
    // Rows keep the sheet's order (the user's); each group keeps its own cells.
    expect(book.records('Budgets').map(r => [r.country_code, r.note])).toEqual([
      ['US', ''],
      ['GB', 'about GB'],
    ]);
  });
});

describe('the server cells a merge pass made a row of', () => {
  it('are as wide as the sheet of the next pass, with none of the last sheet’s own cells', () => {
    const wide = new MemoryWorkbook();
    pull(wide, CAMPAIGNS, campaigns([campaign(1)]));
    const sheet = wide.sheet('Campaigns')!;
    const after = sheet.readValues()[0].length + 1;
    sheet.type(1, after, 'note');
    sheet.type(2, after, 'my note');
    const narrow = new MemoryWorkbook();
    pull(narrow, CAMPAIGNS, campaigns([campaign(1)]));
    const options = (table: Table<Campaign>, book: MemoryWorkbook) => ({
      table,
      previous: StateBook.open(book).get(CAMPAIGNS.name),
      accounts: [''],
      label: () => 'main account',
      context: book,
      now: NOW,
    });
    const wider = openTable(wide, CAMPAIGNS, {create: true})!;
    const server = serverRecords(
      wider,
      // Renamed on the server since: the row is written, not left as read.
      encodeRecords(CAMPAIGNS, [
        {
          account: '',
          ...campaigns([campaign(1, {campaign_name: 'Renamed'})])[0],
        },
      ]),
      undefined,
      wide,
    );
    const first = mergeServerRecords(options(wider, wide), server);
    // The row is the server cells themselves, the sheet's own cells after the schema's.
    expect(first.rows[0]).toBe([...server.values()][0].rows[0]);
    expect(first.rows[0]).toHaveLength(wider.width);
    expect(first.rows[0][after - 1]).toBe('my note');
    // The next pass, the user's column deleted: the same cells, as wide as the sheet now.
    const narrower = openTable(narrow, CAMPAIGNS, {create: true})!;
    const second = mergeServerRecords(options(narrower, narrow), server);
    expect(narrower.width).toBe(wider.width - 1);
    expect(second.rows[0]).toHaveLength(narrower.width);
    expect(second.rows[0]).not.toContain('my note');
    expect(second.rows[0]).toContain('Renamed');
  });
});

describe('whether a refresh write could keep typing (wouldKeepTyping)', () => {
  /** Campaigns 1 and 2 pulled, then merged again from the server as `now` lists them. */
  function mergedAgain(now: Campaign[]) {
    const book = new MemoryWorkbook();
    pull(book, CAMPAIGNS, campaigns([campaign(1), campaign(2)]));
    const table = openTable(book, CAMPAIGNS, {create: true})!;
    const merged = mergeRecords({
      table,
      records: campaigns(now).map(r => ({...r, account: ''})),
      previous: StateBook.open(book).get(CAMPAIGNS.name),
      accounts: [''],
      label: () => 'main account',
      context: book,
      now: NOW,
    });
    return wouldKeepTyping(table, merged.rows, merged.sources);
  }

  it('no: the server changed only a read-only cell, or added a row', () => {
    expect(
      mergedAgain([campaign(1, {status: 'PAUSED'}), campaign(2), campaign(3)]),
    ).toBe(false);
  });

  it('yes: the server changed a cell people type in (campaign_name) of a row read', () => {
    expect(
      mergedAgain([campaign(1, {campaign_name: 'Renamed'}), campaign(2)]),
    ).toBe(true);
  });
});
