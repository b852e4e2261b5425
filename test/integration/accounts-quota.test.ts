/**
 * Issue 33: the day's UrlFetch quota is one per person, not per spreadsheet. The schedule
 * check counts the person's other scheduled spreadsheets (what each is expected to make, kept
 * with its schedule in the person's user properties) and names them; a saved schedule keeps
 * its own for the others' checks.
 */
import {offerDesk} from '../support/offer-desk';

const OWNER = 'owner@example.com';
const SHEET_ID = '1OfferDeskSpreadsheetId0000000000000000000000';
const OTHER = 'another-spreadsheet-id';

function withOtherSchedule(requests: number) {
  const desk = offerDesk({offers: 3}, {users: [OWNER]});
  desk.rt.call('refreshOffers');
  desk.rt.properties.user(OWNER).map.set(
    `offerDesk.schedule.${OTHER}`,
    JSON.stringify({
      hours: 24,
      job: 'refreshAll',
      spreadsheetId: OTHER,
      triggerId: 'trigger-of-agency-b',
      requests,
      name: 'Agency B',
    }),
  );
  return desk;
}

describe("the day's UrlFetch quota, shared by a person's schedules", () => {
  it("refuses a schedule that fits alone but not beside another spreadsheet's, naming it and what fits", () => {
    const {rt} = withOtherSchedule(19_990);

    expect(() =>
      rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'}),
    ).toThrow(
      'The scheduled refresh was not saved: A refresh of the main account every hour would make about 24 UrlFetch calls a day (1 a run, 24 runs), and your scheduled refreshes of other spreadsheets about 19,990 ("Agency B" 19,990): together more than the 20,000 Google allows one person a day (the quota of a gmail.com account, which Offer Desk assumes; Google Workspace allows 100,000). To fit, choose every 4 hours (6 calls a day) or longer, turn off or lengthen a schedule of another spreadsheet, or refresh fewer accounts: act as one account, or keep each group of accounts in a workbook of its own.',
    );
    expect(rt.triggers.records).toHaveLength(0);
    expect(
      rt.call('setRefreshSchedule', 4, {job: 'refreshOffers'}),
    ).toMatchObject({hours: 4});
  });

  it('keeps what a saved schedule is expected to make, and its name, with it in the user properties', () => {
    const {rt} = withOtherSchedule(10);
    rt.call('setRefreshSchedule', 2, {job: 'refreshOffers'});
    const saved = JSON.parse(
      rt.properties.user(OWNER).map.get(`offerDesk.schedule.${SHEET_ID}`)!,
    );
    expect(saved).toMatchObject({
      hours: 2,
      requests: 1,
      name: rt.spreadsheet.getName(),
    });
  });
});
