/**
 * support_server_click as a server may list it: 2.3 leaves it out of the offers list, 2.8
 * calls it "whether server-side click is supported" and quotes 'NO'. Listed as a JSON boolean
 * (emulator option `listsServerClick: 'boolean'`), it is the YES or NO it means: the cell
 * shows that, and a click_url edit sends it back as the API's text, the row OK, instead of
 * being refused for a value the user never typed.
 */
import {offerDesk, recordsOf, typeInto} from '../support/offer-desk';

describe('support_server_click listed as a boolean', () => {
  it('shows YES or NO, and a click_url edit sends that value back as text', () => {
    const {rt, emulator} = offerDesk({offers: 2, listsServerClick: 'boolean'});
    const [yes, no] = [...emulator.account('demo_adv').offers.keys()];
    for (const [id, flag] of [
      [yes, 'YES'],
      [no, 'NO'],
    ] as const)
      emulator.updateOffer(id, {
        maintain_by: 'ADV',
        tracking_method: 'APPSFLYER',
        support_server_click: flag,
      });
    rt.call('refreshOffers');
    const offers = () =>
      recordsOf(rt, 'Offers').map(r => [
        r.offer_id,
        r.support_server_click,
        r.sync_status,
      ]);
    expect(offers()).toEqual([
      [yes, 'YES', ''],
      [no, 'NO', ''],
    ]);
    typeInto(rt, 'Offers', 2, 'click_url', 'https://t.example.com/c?o=yes');
    typeInto(rt, 'Offers', 3, 'click_url', 'https://t.example.com/c?o=no');
    emulator.clearRequests();

    expect(rt.call('pushTracking')).toMatchObject({ok: 2, invalid: 0});

    expect(
      emulator.requests.filter(r => r.method === 'PUT').map(r => r.body),
    ).toEqual([
      {
        offer_id: yes,
        tracking_method: 'APPSFLYER',
        click_url: 'https://t.example.com/c?o=yes',
        support_server_click: 'YES',
      },
      {
        offer_id: no,
        tracking_method: 'APPSFLYER',
        click_url: 'https://t.example.com/c?o=no',
        support_server_click: 'NO',
      },
    ]);
    expect(offers()).toEqual([
      [yes, 'YES', 'OK'],
      [no, 'NO', 'OK'],
    ]);
  });
});
