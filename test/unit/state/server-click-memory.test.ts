import {
  rememberServerClicks,
  sentServerClicks,
  TRACKING_SET_MEMO,
} from '../../../src/state/server-click-memory';
import {StateBook} from '../../../src/state/book';
import {MemoryWorkbook} from '../../support/workbook';

describe('the memory of support_server_click values sent', () => {
  it('keeps the last accepted value per offer across executions', () => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    expect(sentServerClicks(first)).toEqual({});
    rememberServerClicks(
      first,
      [
        {offer_id: 101, support_server_click: 'NO'},
        {offer_id: '102', support_server_click: 'YES'},
      ],
      1000,
    );
    first.save();
    const second = StateBook.open(book);
    rememberServerClicks(
      second,
      [{offer_id: 101, support_server_click: 'YES'}],
      2000,
    );
    second.save();
    expect(sentServerClicks(StateBook.open(book))).toEqual({
      '101': 'YES',
      '102': 'YES',
    });
    // When each offer's tracking was last set: the alerts wait for its click-URL test.
    expect(StateBook.open(book).memo(TRACKING_SET_MEMO)).toEqual({
      '101': 2000,
      '102': 1000,
    });
  });
});
