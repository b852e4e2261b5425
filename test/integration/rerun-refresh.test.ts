/**
 * "A re-run always moves forward", for the refreshes: Apps Script stops a refresh after it
 * wrote one sheet and before it wrote the next, and a push follows. The built dist/Code.js in
 * the local runtime against the emulator.
 */
import {EXCEEDED_TIME} from '../../local/runtime';
import {offerDesk, recordsOf} from '../support/offer-desk';

describe('refreshAll stopped between two sheets', () => {
  it('the sheet written has its state with it: the next push takes none of the server values for edits', () => {
    const {rt, emulator} = offerDesk({offers: 3, campaigns: 3});
    rt.call('refreshAll');
    const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
      c => c.maintain_by === 'ADV',
    )!;
    emulator.updateCampaign(campaign.campaign_id, {
      description: 'changed on the server',
    });
    // Apps Script stops the run right after it read the Offers sheet (Campaigns is written).
    rt.collaborator.afterRead('Offers', () => rt.clock.advance(7 * 60_000));
    expect(() => rt.call('refreshAll')).toThrow(EXCEEDED_TIME);
    const row = recordsOf(rt, 'Campaigns').find(
      r => r.campaign_id === campaign.campaign_id,
    )!;
    expect(row).toMatchObject({
      description: 'changed on the server',
      sync_status: '',
    });

    emulator.clearRequests();
    expect(rt.call('pushCampaigns')).toMatchObject({
      ok: 0,
      invalid: 0,
      error: 0,
      requests: 0,
    });
    expect(emulator.requests).toEqual([]);
    expect(
      recordsOf(rt, 'Campaigns').find(
        r => r.campaign_id === campaign.campaign_id,
      ),
    ).toMatchObject({sync_status: '', sync_message: ''});
    // The refresh run again finishes, and still nothing is an edit.
    expect(rt.call('refreshAll')).toMatchObject({edited: 0});
    emulator.clearRequests();
    expect(rt.call('pushCampaigns')).toMatchObject({requests: 0});
  });
});
