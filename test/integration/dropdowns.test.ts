/**
 * Issue 14, "Known vendor values as dropdowns in the input columns": what the built
 * dist/Code.js sets when a job creates the sheets, and that a value outside a suggested list
 * is kept and sent as typed while a value outside a list the API document fixes is refused.
 */
import type {Emulator} from '../../local/emulator';
// The vendor's values as the emulator knows them: the dropdowns must offer exactly these.
import {
  AD_TYPES,
  BILLING_TYPES,
  NETWORKS,
  TRACKING_METHODS,
} from '../../local/emulator/enums';
import type {Runtime} from '../../local/runtime';
import {
  cpiOfferRow,
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
  valuesOf,
} from '../support/offer-desk';

const SUGGESTION = 'Known values (a suggestion: another value is sent as typed';

/** Data validation of the cell under `header` in sheet row `row`, and the header's note. */
function dropdownOf(rt: Runtime, sheet: string, row: number, header: string) {
  const column = valuesOf(rt, sheet)[0].indexOf(header) + 1;
  const rule = sheetOf(rt, sheet).getRange(row, column).getDataValidation();
  return {
    values: rule ? [...(rule.getCriteriaValues()[0] as string[])] : undefined,
    allowInvalid: rule?.getAllowInvalid(),
    note: sheetOf(rt, sheet).getRange(1, column).getNote(),
  };
}

/** New Offers exists once a create job ran; Offers and Budgets once offers were refreshed. */
function withSheets(rt: Runtime): void {
  rt.call('createOffers');
  rt.call('refreshOffers');
}

describe('dropdowns of the input columns', () => {
  it('suggest vendor values where the document does not fix the list, and list the fixed ones', () => {
    const {rt} = offerDesk({offers: 2, campaigns: 2, materials: 1});
    withSheets(rt);
    const expected: Array<[string, string, readonly string[], boolean]> = [
      ['New Offers', 'tracking_method', TRACKING_METHODS, true],
      ['New Offers', 'target_ad_type', AD_TYPES, true],
      ['New Offers', 'network', NETWORKS, true],
      [
        'New Offers',
        'target_device',
        ['PHONE', 'TABLET', 'PHONE,TABLET'],
        false,
      ],
      ['New Offers', 'billing_type', BILLING_TYPES, true],
      ['New Offers', 'daily_cap_type', ['BUDGET', 'CONVERSION'], false],
      ['New Offers', 'bid_goal', ['Target-ROAS', 'Target-CPE'], false],
      ['New Offers', 'target_goal_window', ['D0', 'D7'], false],
      ['New Offers', 'support_server_click', ['YES', 'NO'], false],
      ['Offers', 'tracking_method', TRACKING_METHODS, true],
      ['Offers', 'support_server_click', ['YES', 'NO'], false],
      ['Budgets', 'daily_cap_type', ['BUDGET', 'CONVERSION'], false],
    ];
    for (const [sheet, header, values, suggested] of expected) {
      const {note, ...rule} = dropdownOf(rt, sheet, 1000, header);
      // Every dropdown only warns: a fixed list is enforced by the rules, with a message.
      expect({sheet, header, ...rule}).toEqual({
        sheet,
        header,
        values,
        allowInvalid: true,
      });
      const lead = suggested ? SUGGESTION : ' Values:';
      expect(note).toMatch(lead);
      expect(note).toContain(`${values.join(', ')}.\n`);
    }
    expect(dropdownOf(rt, 'New Offers', 2, 'network').note).toContain(
      `${SUGGESTION}, and so is a comma-separated list): 2G, 3G, 4G, 5G, WIFI.`,
    );
    expect(dropdownOf(rt, 'Offers', 2, 'tracking_method').note).toBe(
      `Tracking method. A tracking push sends it with click_url and support_server_click. ${SUGGESTION}): ${TRACKING_METHODS.join(', ')}.\nEditable: Push tracking sends the offer's tracking_method, click_url and support_server_click together when any of them changed.`,
    );
  });
});

function deliverableCampaign(emulator: Emulator): number {
  return [...emulator.account('demo_adv').campaigns.values()].find(
    c =>
      c.status === 'RUNNING' &&
      c.maintain_by === 'ADV' &&
      c.promotion_type === 'APP',
  )!.campaign_id;
}

/** One New Offers row with one creative set, `fields` over a valid CPI row. */
function typeOffer(
  rt: Runtime,
  emulator: Emulator,
  fields: Record<string, string>,
) {
  rt.call('createOffers');
  const md5 = [...emulator.account('demo_adv').materials.keys()][0];
  const name = emulator.account('demo_adv').materials.get(md5)!.creative_name;
  typeInto(rt, 'Creatives', 2, 'creative_md5', md5);
  typeInto(rt, 'Creatives', 2, 'creative_name', name);
  const row = cpiOfferRow(
    deliverableCampaign(emulator),
    'dropdown_offer',
    fields,
  );
  for (const [header, text] of Object.entries(row))
    typeInto(rt, 'New Offers', 2, header, text);
  const set = {
    offer_name: 'dropdown_offer',
    creative_set_name: 'set',
    geos: 'ALL',
    ad_outputs: '111',
    creatives: md5,
  };
  for (const [header, text] of Object.entries(set))
    typeInto(rt, 'Creative Sets', 2, header, text);
  emulator.clearRequests();
}

describe('a value outside the dropdown', () => {
  it('of a suggested list is kept and sent as typed; a comma-separated list too', () => {
    const {rt, emulator} = offerDesk({offers: 2, campaigns: 3, materials: 1});
    typeOffer(rt, emulator, {
      network: '4G,WIFI',
      target_ad_type: 'REWARDED_VIDEO,NEW_VENDOR_TYPE',
      tracking_method: 'my_mmp',
    });
    rt.call('createOffers');
    const [create] = emulator.requests.filter(r => r.method === 'POST');
    expect(create.path).toBe('/api/open/v3/offer');
    expect(create.body).toMatchObject({
      network: '4G,WIFI',
      target_ad_type: 'REWARDED_VIDEO,NEW_VENDOR_TYPE',
    });
    const [row] = recordsOf(rt, 'New Offers');
    expect(row).toMatchObject({
      network: '4G,WIFI',
      target_ad_type: 'REWARDED_VIDEO,NEW_VENDOR_TYPE',
      tracking_method: 'my_mmp',
    });
  });

  it('of a tracking method is sent as typed with PUT tracking, never respelled to a known one', () => {
    const {rt, emulator} = offerDesk({offers: 2, campaigns: 3, materials: 1});
    typeOffer(rt, emulator, {tracking_method: 'adjust'});
    rt.call('createOffers');
    const put = emulator.requests.find(r => r.method === 'PUT');
    expect(put?.path).toBe('/api/open/v3/tracking');
    expect(put?.body).toMatchObject({tracking_method: 'adjust'});
    expect(recordsOf(rt, 'New Offers')[0].tracking_method).toBe('adjust');
  });

  it('of a list the document fixes is refused before anything is sent, the cell kept', () => {
    const {rt, emulator} = offerDesk({offers: 2, campaigns: 3, materials: 1});
    typeOffer(rt, emulator, {daily_cap_type: 'DAILY'});
    rt.call('createOffers');
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      daily_cap_type: 'DAILY',
      sync_status: 'INVALID',
      sync_message: expect.stringContaining(
        'daily_cap_type must be BUDGET or CONVERSION (got "DAILY")',
      ),
    });
  });
});

describe('billing_type, a suggestion: the document names five types that "appear"', () => {
  const posts = (emulator: Emulator) =>
    emulator.requests.filter(r => r.method === 'POST');

  const NOTE =
    'billing_type CPA is not one the API document names (CPI, CPE, CPM, CPC, OCPI): sent as typed; the API decides which fields it needs.';
  const CODE =
    'CPI, CPE, CPM, CPC, OCPI or another billing-type code of 2 to 20 letters, digits or underscores';

  it('a known type in lower case is sent in its spelling: cpi as CPI', () => {
    const {rt, emulator} = offerDesk({offers: 2, campaigns: 3, materials: 1});
    typeOffer(rt, emulator, {billing_type: 'cpi'});
    rt.call('createOffers');
    const [create] = posts(emulator);
    expect(create.body).toMatchObject({billing_type: 'CPI', bid_rate: 1.5});
    const [row] = recordsOf(rt, 'New Offers');
    expect(row).toMatchObject({
      billing_type: 'cpi',
      sync_status: 'OK',
      sync_message: `Offer ${row.offer_id} created; tracking set.`,
    });
    expect(emulator.offerView(row.offer_id as number)?.bid_type).toBe('CPI');
  });

  it('another type is sent exactly as typed, with the fields the row fills and none required; the preview says so too', () => {
    const {rt, emulator} = offerDesk({
      offers: 2,
      campaigns: 3,
      materials: 1,
      extraBillingTypes: ['CPA'],
    });
    typeOffer(rt, emulator, {
      billing_type: ' CPA',
      bid_rate: '0.005',
      target_ad_type: '',
    });
    const campaign = deliverableCampaign(emulator);
    const preview = rt.call('createOffers', {dryRun: true});
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'EDITED',
      sync_message: `Preview: a run looks offer_name dropdown_offer up (a name the account already has is refused), creates offer dropdown_offer (billing_type CPA, campaign ${campaign}, 1 creative set, daily_cap no limit, total_budget no limit), then sets its tracking (1 more request). ${NOTE} The budget guard holds it: a run asks you before creating an offer with no limit.`,
    });
    rt.call('createOffers');
    const [create] = posts(emulator);
    const body = {
      campaign_id: campaign,
      offer_name: 'dropdown_offer',
      promote_timezone: 8,
      start_time: 1789984800,
      target_geo: 'US,GB',
      billing_type: 'CPA',
      bid_rate: 0.005,
    };
    expect(preview).toMatchObject({wouldSend: [expect.objectContaining(body)]});
    expect(create.path).toBe('/api/open/v3/offer');
    const {creative_sets: sets, ...sent} = create.body as Record<
      string,
      unknown
    >;
    expect(sent).toEqual(body);
    expect(sets).toHaveLength(1);
    const [row] = recordsOf(rt, 'New Offers');
    expect(row).toMatchObject({
      billing_type: ' CPA',
      sync_status: 'OK',
      sync_message: `Offer ${row.offer_id} created; tracking set. ${NOTE}`,
    });
    expect(emulator.offerView(row.offer_id as number)?.bid_type).toBe('CPA');
  });

  it('the API refusing the type: ERROR with its message, no offer made; the unchanged row is not sent again until its status is cleared', () => {
    const {rt, emulator} = offerDesk({offers: 2, campaigns: 3, materials: 1});
    typeOffer(rt, emulator, {billing_type: 'CPA', target_ad_type: ''});
    rt.call('createOffers');
    expect(
      posts(emulator).map(r => (r.body as {billing_type: string}).billing_type),
    ).toEqual(['CPA']);
    const refused = recordsOf(rt, 'New Offers')[0];
    expect(refused).toMatchObject({
      billing_type: 'CPA',
      offer_id: '',
      sync_status: 'ERROR',
      sync_message:
        'POST offer: code 10000 error [billing_type: The selected billing_type is invalid.]. Nothing was created. Change the row, or clear its sync_status, to send it again: unchanged, it is not sent again.',
    });
    expect(
      [...emulator.account('demo_adv').offers.values()].filter(
        o => o.offer_name === 'dropdown_offer',
      ),
    ).toEqual([]);
    emulator.clearRequests();
    const again = rt.call('createOffers') as {skipped: number};
    expect(emulator.requests).toEqual([]);
    expect(again.skipped).toBe(1);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: '',
      sync_status: 'ERROR',
      sync_message: refused.sync_message,
    });
    // Clearing the status asks for it to be sent again: it is, and refused again.
    typeInto(rt, 'New Offers', 2, 'sync_status', '');
    rt.call('createOffers');
    expect(posts(emulator)).toHaveLength(1);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: refused.sync_message,
    });
    // So is a changed row, at once.
    emulator.clearRequests();
    typeInto(rt, 'New Offers', 2, 'bid_rate', '0.006');
    rt.call('createOffers');
    expect(posts(emulator)).toHaveLength(1);
  });

  it.each([
    ['C P A', `billing_type must be ${CODE} (got "C P A")`],
    ['', `billing_type is required: ${CODE}`],
  ])(
    'a billing_type of %j is INVALID, in the preview and the run, nothing sent',
    (typed, message) => {
      const {rt, emulator} = offerDesk({
        offers: 2,
        campaigns: 3,
        materials: 1,
        extraBillingTypes: ['CPA'],
      });
      typeOffer(rt, emulator, {billing_type: typed});
      for (const dryRun of [true, false]) {
        rt.call('createOffers', {dryRun});
        expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
          billing_type: typed,
          sync_status: 'INVALID',
          sync_message: `${message}. Nothing was sent.`,
        });
      }
      expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    },
  );
});
