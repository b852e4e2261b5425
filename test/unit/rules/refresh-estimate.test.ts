import {
  DEFAULT_PACE,
  estimateRefresh,
  scheduleQuota,
} from '../../../src/rules/refresh-estimate';

describe('estimateRefresh', () => {
  it("pages every account's lists together after the sub-account keys: the agency of the bench", () => {
    const offers = {records: 1000, pageSize: 50};
    const estimate = estimateRefresh({
      keys: {records: 30, pageSize: 50},
      accounts: Array.from({length: 31}, () => [offers]),
      cells: 0,
    });
    // 1 request for the keys, 31 first pages, 31 x 19 other pages in 6 batches.
    expect(estimate).toEqual({
      requests: 1 + 31 + 31 * 19,
      roundTrips: 1 + 1 + 6,
      ms: 8 * DEFAULT_PACE.roundTripMs + 621 * DEFAULT_PACE.perRequestMs,
    });
  });

  it('asks page 1 of an empty list, and reads and writes each cell once', () => {
    expect(
      estimateRefresh(
        {accounts: [[{records: 0, pageSize: 50}]], cells: 1000},
        {roundTripMs: 100, perRequestMs: 1, perCellMs: 0.5},
      ),
    ).toEqual({requests: 1, roundTrips: 1, ms: 100 + 1 + 1000});
  });
});

describe('scheduleQuota', () => {
  it('counts the runs of a day against 20,000 calls and names the shortest interval that fits', () => {
    expect(scheduleQuota(841, 1)).toEqual({
      callsPerDay: 20184,
      fits: false,
      shortestFitting: 2,
    });
    expect(scheduleQuota(684, 1)).toEqual({
      callsPerDay: 16416,
      fits: true,
      shortestFitting: 1,
    });
    expect(scheduleQuota(20001, 24)).toEqual({
      callsPerDay: 20001,
      fits: false,
      shortestFitting: undefined,
    });
  });
});
