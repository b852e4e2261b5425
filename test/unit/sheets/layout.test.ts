import {decode} from '../../../src/sheets/codec';
import {headerNote} from '../../../src/sheets/layout';
import {NEW_OFFERS} from '../../../src/sheets/schemas/new-offers';
import {OFFERS} from '../../../src/sheets/schemas/offers';

const utc = {utcOffsetMinutes: () => 0};
const column = (schema: typeof NEW_OFFERS | typeof OFFERS, header: string) =>
  schema.columns.find(c => c.header === header)!;

describe('suggested values (the API document does not fix the list)', () => {
  it('are not respelled: a lowercase or unknown tracking method is read as typed', () => {
    for (const schema of [NEW_OFFERS, OFFERS]) {
      const tracking = column(schema, 'tracking_method');
      expect(tracking.suggests).toContain('ADJUST');
      expect(decode(tracking, 'adjust', utc)).toEqual({
        ok: true,
        value: 'adjust',
      });
      expect(decode(tracking, 'MY_MMP', utc)).toEqual({
        ok: true,
        value: 'MY_MMP',
      });
    }
  });

  it('a fixed list still takes its own spelling', () => {
    expect(decode(column(NEW_OFFERS, 'daily_cap_type'), 'budget', utc)).toEqual(
      {ok: true, value: 'BUDGET'},
    );
  });

  it('the header note says the list is a suggestion; a list column also accepts lists', () => {
    expect(headerNote(column(NEW_OFFERS, 'network'), 'Sent.')).toBe(
      'Network types, comma-separated; empty for all. Known values (a suggestion: another value is sent as typed, and so is a comma-separated list): 2G, 3G, 4G, 5G, WIFI.\nEditable: Sent.',
    );
    expect(headerNote(column(NEW_OFFERS, 'daily_cap_type'), 'Sent.')).toBe(
      'BUDGET (the default) or CONVERSION. Values: BUDGET, CONVERSION.\nEditable: Sent.',
    );
  });
});
