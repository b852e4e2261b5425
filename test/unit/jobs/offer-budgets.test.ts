import {keptOffer} from '../../../src/jobs/refresh/offers-refresher';
import {
  BUDGETS_READS,
  budgetCells,
  budgetRecord,
  budgetRecords,
} from '../../../src/jobs/refresh/offer-budgets';
import {BUDGETS} from '../../../src/sheets/schemas/budgets';
import {OFFERS} from '../../../src/sheets/schemas/offers';
import type {Offer} from '../../../src/api/types';
import {CellPool} from '../../../src/sheets/cell-pool';
import {offer} from '../../support/records';

/** `o` with `fields` set, and those named `undefined` left out as a list leaves them out. */
function listed(o: Offer, fields: Record<string, unknown>): Offer {
  const all: Record<string, unknown> = {...o, ...fields};
  for (const k of Object.keys(fields))
    if (fields[k] === undefined) delete all[k];
  return all as unknown as Offer;
}

/** The Budgets records made, as a refresh makes them, from the Offers records kept. */
function fromOffersRecords(offers: Offer[], account: string) {
  const pool = new CellPool();
  const kept = offers.map(o => keptOffer(o, account, {}, pool));
  const asListed = new Map(
    kept.flatMap((k, at) => (k.asListed ? [[at, k.asListed] as const] : [])),
  );
  const rows = kept.map(k => budgetCells(k.offers.rows[0]));
  return {records: budgetRecords([{account, rows, asListed}]), kept};
}

const group = (fields: Record<string, unknown>) => ({
  target_geo: 'ALL',
  daily_cap_type: 'BUDGET',
  daily_cap: '100',
  total_budget: '1000',
  ...fields,
});

/** Offers whose fields their Offers cells give back as Budgets reads them. */
const faithful: Offer[] = [
  offer(1),
  listed(offer(2), {budget: undefined}),
  listed(offer(3), {budget: []}),
  listed(offer(4), {budget: null}),
  listed(offer(5), {
    target_geo: 'US,GB,DE',
    budget: [
      group({target_geo: 'US', daily_cap: 60.5, total_budget: 1234.567}),
      group({target_geo: 'GB,DE', daily_cap_type: 'CONVERSION', daily_cap: 70}),
    ],
  }),
  listed(offer(6), {currency: undefined}),
  listed(offer(7), {maintain_by: undefined, offer_name: undefined}),
  listed(offer(8), {maintain_by: 'AM', currency: 'CNY'}),
  listed(offer(9), {
    offer_name: ' "quoted" \\ back\nslash \u2028 ',
    target_geo: ' us , GB ',
    budget: [
      group({
        target_geo: 'U"S\\',
        daily_cap_type: 'b\tudget',
        daily_cap: 'OPEN',
        total_budget: '0.001',
        '{"x"': [null, {a: '\u0000'}],
      }),
    ],
  }),
  listed(offer(10), {offer_id: '0010 ', currency: 5, offer_name: 1.25}),
  listed(offer(11), {budget: {target_geo: 'US'}}),
  listed(offer(12), {budget: 7}),
  listed(offer(13), {budget: [null, 'US', [group({})]]}),
];

/** Offers with a field its Offers cell would not give back: kept as listed. */
const unfaithful: Offer[] = [
  listed(offer(20), {budget: JSON.stringify([group({target_geo: 'US'})])}),
  listed(offer(21), {budget: [group({daily_cap: -0})]}),
  listed(offer(22), {budget: [group({daily_cap: undefined})]}),
  listed(offer(23), {budget: [group({total_budget: NaN})]}),
  listed(offer(24), {budget: [group({target_geo: new Date(0)})]}),
  listed(offer(25), {target_geo: ['US', {code: 'GB'}]}),
  listed(offer(26), {offer_name: {en: 'x'}, currency: ['USD']}),
  listed(offer(27), {offer_id: -0}),
];

describe('Budgets made from the Offers records once Offers is written', () => {
  it('are the records the whole offers make, cell for cell and fact for fact', () => {
    const offers = [...faithful, ...unfaithful];
    const {records} = fromOffersRecords(offers, 'team_a');
    const pool = new CellPool();
    expect(records).toStrictEqual(
      offers.map(o => budgetRecord(o, 'team_a', pool)),
    );
  });

  it('keep nothing but the Offers record of an offer its cells give back', () => {
    const {kept} = fromOffersRecords(faithful, '');
    expect(kept.map(k => k.asListed)).toEqual(faithful.map(() => undefined));
  });

  it('keep as listed only the fields the cells would not give back', () => {
    const {kept} = fromOffersRecords(unfaithful, '');
    expect(kept.map(k => Object.keys(k.asListed ?? {}))).toEqual([
      ['budget'],
      ['budget'],
      ['budget'],
      ['budget'],
      ['budget'],
      ['target_geo'],
      ['offer_name', 'currency'],
      ['offer_id'],
    ]);
  });

  it('take each field Budgets shows from an Offers column encoded alike', () => {
    type Spec = {
      header: string;
      type: string;
      joined?: boolean;
      items?: string;
    };
    const spec = (columns: readonly Spec[], header: string) => {
      const c = columns.find(column => column.header === header);
      return c && {type: c.type, joined: c.joined, items: c.items};
    };
    const shown = BUDGETS_READS.filter(f => spec(BUDGETS.columns, f));
    expect(shown).toEqual(BUDGETS_READS.filter(f => f !== 'budget'));
    for (const field of shown)
      expect(spec(OFFERS.columns, field)).toEqual(spec(BUDGETS.columns, field));
  });

  it('read only Offers columns of the schema the merge never fills: none of them editable', () => {
    const editable = OFFERS.columns.filter(c => c.editable).map(c => c.header);
    expect(editable).toEqual([
      'tracking_method',
      'click_url',
      'support_server_click',
    ]);
    const headers = OFFERS.columns.map(c => c.header as string);
    for (const field of BUDGETS_READS) {
      expect(headers).toContain(field);
      expect(editable).not.toContain(field);
    }
  });

  it('read what an API answer carries from the cells alone', () => {
    const answered = JSON.parse(JSON.stringify(faithful)) as Offer[];
    const {kept} = fromOffersRecords(answered, '');
    expect(kept.every(k => k.asListed === undefined)).toBe(true);
  });
});
