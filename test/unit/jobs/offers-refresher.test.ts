import {keptOffer} from '../../../src/jobs/refresh/offers-refresher';
import {once} from '../../../src/jobs/refresh/sheet-refresher';
import {CellPool} from '../../../src/sheets/cell-pool';
import {encodeRecords} from '../../../src/sheets/server-records';
import {OFFERS} from '../../../src/sheets/schemas/offers';
import {offer} from '../../support/records';

const column = (header: string) =>
  OFFERS.columns.findIndex(c => c.header === header);

describe('an offer as the listing keeps it', () => {
  it('holds the Offers cells of the whole offer, and which editable fields the list left out', () => {
    const o = offer(5);
    const kept = keptOffer(o, 'team_a', {}, new CellPool()).offers;
    expect(kept.rows).toEqual(
      encodeRecords(OFFERS, [{account: 'team_a', sources: [o]}])[0].rows,
    );
    // As the sheet shows them, not only as the write-time encoding makes them.
    const cells = kept.rows[0];
    expect(cells[column('offer_id')]).toBe(5);
    expect(cells[column('offer_name')]).toBe('offer_5');
    expect(cells[column('click_url')]).toBe(
      'https://track.example.test/click?o=5',
    );
    expect(JSON.parse(String(cells[column('budget')]))).toEqual(o.budget);
    expect(kept.unknown).toEqual([column('support_server_click')]);
  });

  it('shows the support_server_click the add-on last sent, which the list never returns', () => {
    const kept = keptOffer(offer(6), '', {'6': 'YES'}, new CellPool()).offers;
    expect(kept.rows[0][column('support_server_click')]).toBe('YES');
    expect(kept.unknown).toBeUndefined();
  });

  it('holds what the state and the alerts read of it, and nothing else', () => {
    const o = offer(7, {
      status: 'STOPPED',
      offer_stop_reason: ' no balance ',
      bid_rate: 2.5,
    });
    const kept = keptOffer(o, 'team_a', {}, new CellPool());
    expect(kept.offers.facts).toEqual({
      maintain_by: 'ADV',
      target_geo: 'US,GB',
      status: 'STOPPED',
      offer_stop_reason: 'no balance',
      bid_rate: '2.5',
    });
    expect(kept.asListed).toBeUndefined();
    expect(kept.watched).toEqual({
      id: 'team_a\u001f7',
      facts: {
        offer_name: 'offer_7',
        status: 'STOPPED',
        offer_stop_reason: 'no balance',
        click_url_status: 'PASS',
        start_time: '1767225600',
      },
    });
  });

  it('shares one Date among the offers of one moment', () => {
    const pool = new CellPool();
    const [first, second] = [1, 2].map(
      n => keptOffer(offer(n), '', {}, pool).offers.rows[0],
    );
    expect(first[column('start_time')]).toBe(second[column('start_time')]);
  });
});

describe('records handed to a write once', () => {
  it('are given once, then no longer held', () => {
    const take = once(['a record']);
    expect(take()).toEqual(['a record']);
    expect(() => take()).toThrow('already taken');
  });
});
