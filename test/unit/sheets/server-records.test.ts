import {encodeRecords, serverRecords} from '../../../src/sheets/server-records';
import {OFFERS} from '../../../src/sheets/schemas/offers';
import {openTable} from '../../../src/sheets/table';
import {offer} from '../../support/records';
import {MemoryWorkbook} from '../../support/workbook';

describe('the listed records encoded for the merge', () => {
  it('share one Date for one moment, and keep each cell in the column order of the schema', () => {
    const book = new MemoryWorkbook();
    const table = openTable(book, OFFERS, {create: true})!;
    const at = OFFERS.columns.findIndex(c => c.header === 'start_time');
    const id = OFFERS.columns.findIndex(c => c.header === 'offer_id');
    const server = serverRecords(
      table,
      encodeRecords(
        OFFERS,
        [1, 2, 3].map(n => ({
          account: '',
          sources: [offer(n, {start_time: n === 3 ? 1767312000 : 1767225600})],
        })),
      ),
      undefined,
      book,
    );
    const [first, second, third] = [...server.values()].map(r => r.rows[0]);
    expect(first[at]).toBe(second[at]);
    expect(first[at]).toEqual(new Date(1767225600 * 1000));
    expect(third[at]).toEqual(new Date(1767312000 * 1000));
    expect([first[id], second[id], third[id]]).toEqual([1, 2, 3]);
  });
});
