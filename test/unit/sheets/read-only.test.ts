import {readOnlyEdits, readOnlyPrint} from '../../../src/sheets/read-only';
import {OFFERS} from '../../../src/sheets/schemas/offers';

const pulled: Record<string, unknown> = {
  offer_id: 7,
  offer_name: 'Summer',
  bid_rate: 1.2,
  status: 'RUNNING',
  click_url: 'https://a.test',
};
const cellOf = (row: Record<string, unknown>) => (header: string) =>
  row[header] ?? '';
const everywhere = () => true;

describe('read-only prints', () => {
  const print = readOnlyPrint(OFFERS, cellOf(pulled));

  it('find nothing in a row as written, nor in an edit of an editable column', () => {
    const edited = {...pulled, click_url: 'https://b.test'};
    expect(readOnlyEdits(OFFERS, print, cellOf(edited), everywhere)).toEqual(
      [],
    );
  });

  it('name the read-only columns typed into, with the typed value', () => {
    const typed = {...pulled, bid_rate: 2.5, offer_name: 'Winter'};
    expect(readOnlyEdits(OFFERS, print, cellOf(typed), everywhere)).toEqual([
      {header: 'offer_name', value: 'Winter'},
      {header: 'bid_rate', value: 2.5},
    ]);
  });

  it('notice one character typed over inside a long cell, its length unchanged', () => {
    const schedule = JSON.stringify({1: '0,1,2', 2: 'x'.repeat(5000)});
    const long = {...pulled, custom_ad_schedule: schedule};
    const longPrint = readOnlyPrint(OFFERS, cellOf(long));
    const typed = {
      ...long,
      custom_ad_schedule: schedule.replace('0,1,2', '0,1,3'),
    };
    expect(readOnlyEdits(OFFERS, longPrint, cellOf(typed), everywhere)).toEqual(
      [{header: 'custom_ad_schedule', value: typed.custom_ad_schedule}],
    );
  });

  it('do not flag an emptied cell, a column missing from the sheet, or a print of other columns', () => {
    const emptied = {...pulled, status: ''};
    expect(readOnlyEdits(OFFERS, print, cellOf(emptied), everywhere)).toEqual(
      [],
    );
    const typed = {...pulled, bid_rate: 2.5};
    expect(
      readOnlyEdits(
        OFFERS,
        print,
        cellOf(typed),
        header => header !== 'bid_rate',
      ),
    ).toEqual([]);
    expect(readOnlyEdits(OFFERS, 'AB:1', cellOf(typed), everywhere)).toEqual(
      [],
    );
  });
});
