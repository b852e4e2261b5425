/**
 * What pushCampaigns sends, body for body: only the fields changed, with campaign_id, and
 * nothing for a package_name no app could have, as the built dist/Code.js runs in the local
 * Apps Script runtime against the Open API emulator.
 */
import {offerDesk, recordsOf, typeInto} from '../support/offer-desk';

/** An ADV APP campaign, refreshed; `edit` types cells into its row and pushes. */
function appCampaign() {
  const {rt, emulator} = offerDesk({campaigns: 3});
  const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
    c => c.maintain_by === 'ADV' && c.promotion_type === 'APP',
  )!;
  rt.call('refreshCampaigns');
  emulator.clearRequests();
  const index = recordsOf(rt, 'Campaigns').findIndex(
    r => r.campaign_id === campaign.campaign_id,
  );
  const edit = (cells: Record<string, string>) => {
    for (const [header, text] of Object.entries(cells))
      typeInto(rt, 'Campaigns', index + 2, header, text);
    return rt.call('pushCampaigns');
  };
  const row = () => {
    const r = recordsOf(rt, 'Campaigns')[index];
    return [r.sync_status, r.sync_message];
  };
  return {emulator, campaign, edit, row};
}

describe('pushCampaigns sends', () => {
  it('only the fields changed, trimmed, with campaign_id', () => {
    const {emulator, campaign, edit, row} = appCampaign();

    edit({description: '  Two lines 😀\nof text  ', app_size: '12.50'});

    expect(emulator.requests.map(r => r.body)).toEqual([
      {
        campaign_id: campaign.campaign_id,
        description: 'Two lines 😀\nof text',
        app_size: 12.5,
      },
    ]);
    expect(row()).toEqual(['OK', 'Pushed description, app_size.']);
  });

  it.each([
    [
      '',
      'package_name: package_name is empty: an APP campaign needs its Android bundle id or iOS store id',
    ],
    [
      'com.demo. puzzle',
      'package_name: package_name cannot hold spaces: it is an Android bundle id (com.example.app) or an iOS store id (123456789)',
    ],
  ])('nothing for a package_name of "%s": INVALID saying why', (typed, why) => {
    const {emulator, edit, row} = appCampaign();

    expect(edit({package_name: typed})).toMatchObject({invalid: 1});

    expect(emulator.requests).toEqual([]);
    expect(row()).toEqual(['INVALID', why]);
  });
});
