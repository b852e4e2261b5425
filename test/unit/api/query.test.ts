import {encodeQuery, Query, splitQuery} from '../../../src/api/query';

describe('encodeQuery', () => {
  it('comma-joins lists, URL-encodes values and drops empty ones', () => {
    expect(
      encodeQuery({
        campaign_id: [12, 34],
        offer_name: 'summer sale&co',
        status: ['RUNNING', 'PENDING'],
        package_name: '',
        offer_uuid: undefined,
        page: 2,
        limit: 50,
      }),
    ).toBe(
      'campaign_id=12%2C34&offer_name=summer%20sale%26co&status=RUNNING%2CPENDING&page=2&limit=50',
    );
  });

  it('encodes non-ASCII text as UTF-8', () => {
    expect(encodeQuery({campaign_name: '广告'})).toBe(
      'campaign_name=%E5%B9%BF%E5%91%8A',
    );
  });

  it('gives an empty string when nothing is set', () => {
    expect(encodeQuery({a: undefined, b: null, c: []})).toBe('');
  });
});

describe('splitQuery', () => {
  /** Accepts a query whose encoded form is at most `max` characters. */
  const within = (max: number) => (query: Query) =>
    encodeQuery(query).length <= max;

  it('leaves a query that fits as it is', () => {
    const query = {offer_id: [1, 2, 3], status: 'RUNNING'};
    expect(splitQuery(query, within(100), 'GET offers')).toEqual([query]);
  });

  it('packs the longest list into as few parts as fit, in order, other filters kept whole', () => {
    const query = {
      status: ['RUNNING', 'STOPPED'],
      offer_id: [1001, 1002, 1003, 1004, 1005],
    };
    // "status=RUNNING%2CSTOPPED&offer_id=1001%2C1002" is 45 characters.
    expect(splitQuery(query, within(45), 'GET offers')).toEqual([
      {status: ['RUNNING', 'STOPPED'], offer_id: [1001, 1002]},
      {status: ['RUNNING', 'STOPPED'], offer_id: [1003, 1004]},
      {status: ['RUNNING', 'STOPPED'], offer_id: [1005]},
    ]);
  });

  it('splits the next list when one value of the longest still does not fit', () => {
    const query = {campaign_id: [11, 22], offer_id: [1001, 1002, 1003]};
    const parts = splitQuery(query, within(28), 'GET offers');
    expect(parts).toEqual([
      {campaign_id: [11], offer_id: [1001]},
      {campaign_id: [22], offer_id: [1001]},
      {campaign_id: [11], offer_id: [1002]},
      {campaign_id: [22], offer_id: [1002]},
      {campaign_id: [11], offer_id: [1003]},
      {campaign_id: [22], offer_id: [1003]},
    ]);
    for (const part of parts)
      expect(encodeQuery(part).length).toBeLessThanOrEqual(28);
  });

  it('says which request cannot be made short enough', () => {
    expect(() =>
      splitQuery({offer_name: 'x'.repeat(50)}, within(20), 'GET offers'),
    ).toThrow(
      "GET offers: the request's URL would be longer than the 2,048 characters Apps Script allows, even with one value of each list filter. Shorten the base URL or the filter values.",
    );
  });
});
