/**
 * Issue 34 (DESIGN 4.2, 4.6) on the built add-on: cloneOffers writes New Offers, Creative Sets
 * and Creatives rows for each source offer and target, sending no write; createOffers then
 * uploads, creates and sets the tracking, signed by the target account.
 */
import {DEMO_ACCOUNTS, Emulator} from '../../local/emulator';
import {md5Hex} from '../../local/emulator/digest';
import type {Runtime} from '../../local/runtime';
import {signedRequests} from '../support/accounts';
import {
  EMULATOR_URL,
  createKilledBeforeAnswers,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  sheetOf,
} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main.name;
const SUB = DEMO_ACCOUNTS.subB.name;
const DAY = 86400;

const writes = (emulator: Emulator) =>
  emulator.requests.filter(r => r.method !== 'GET');

/**
 * The main account's offer with creative ads, made a CPI offer of a deliverable Android
 * campaign, tracked, with a DE price and a budget group covering DE and FR; Offers refreshed
 * and its creative ads listed; the requests log cleared.
 */
function clonable(options = {}) {
  const desk = offerDesk({offers: 12, ...options});
  const {rt, emulator} = desk;
  const main = emulator.account(MAIN);
  const campaignId = deliverableCampaign(emulator);
  const ads = [...main.creativeAds.values()];
  const id = ads[0].offer_id;
  const now = Math.floor(rt.clock.now() / 1000);
  emulator.updateOffer(id, {
    campaign_id: campaignId,
    offer_name: 'hero_offer',
    maintain_by: 'ADV',
    bid_type: 'CPI',
    bid_goal: 'Install',
    bid_rate: 1.5,
    bid_rate_by_location: [{country_code: 'DE', bid_rate: '2.5'}],
    target_geo: 'US,DE,FR',
    budget: [
      {
        target_geo: 'US',
        daily_cap_type: 'BUDGET',
        daily_cap: '100',
        total_budget: '1000',
      },
      {
        target_geo: 'DE,FR',
        daily_cap_type: 'BUDGET',
        daily_cap: '60',
        total_budget: '600',
      },
    ],
    start_time: now - 30 * DAY,
    end_time: 0,
    tracking_method: 'APPSFLYER',
    click_url: 'https://track.example.com/c?o=hero',
    target_ad_type: 'REWARDED_VIDEO',
    settlement_event: '',
    os_version_min: '8.0',
    custom_ad_schedule: {'1': '9,10,11'},
    network: 'WIFI',
    target_device: 'PHONE',
  });
  const adIds = ads.filter(a => a.offer_id === id).map(a => a.ad_id);
  rt.call('refreshAll');
  rt.call('listCreativeAds', {adIds: adIds.join(',')});
  emulator.clearRequests();
  const md5s = [
    ...new Set(
      ads
        .filter(a => a.offer_id === id)
        .flatMap(a => a.creatives.map(c => c.creative_md5)),
    ),
  ].sort();
  const pkg = emulator.store.campaign(campaignId)!.package_name;
  return {...desk, id, campaignId, md5s, pkg};
}

/** The md5s of every creative set of the offer named `name` in `account`. */
function md5sOf(emulator: Emulator, account: string, name: string): string[] {
  const offer = [...emulator.account(account).offers.values()].find(
    o => o.offer_name === name,
  );
  if (!offer) throw new Error(`no offer ${name} in ${account}`);
  return [
    ...new Set(
      offer.creative_sets.flatMap(s => s.creatives.map(c => c.creative_md5)),
    ),
  ].sort();
}

const offerNamed = (emulator: Emulator, account: string, name: string) =>
  [...emulator.account(account).offers.values()].filter(
    o => o.offer_name === name,
  );

function clone(rt: Runtime, spec: unknown): Record<string, unknown> {
  return rt.call('cloneOffers', spec) as Record<string, unknown>;
}

describe('cloneOffers into two geos of the same account', () => {
  it('writes one row per geo, sending nothing; createOffers creates both with the source materials by md5 and its tracking', () => {
    const {rt, emulator, id, campaignId, md5s} = clonable();

    const summary = clone(rt, {
      from: [{account: '', offer_id: id}],
      to: [
        {account: '', target_geo: 'DE'},
        {account: '', target_geo: 'FR'},
      ],
    });

    expect(writes(emulator)).toEqual([]);
    expect(summary).toMatchObject({invalid: 0, error: 0});
    const rows = recordsOf(rt, 'New Offers');
    expect(rows.map(r => [r.offer_name, r.target_geo])).toEqual([
      ['hero_offer_DE', 'DE'],
      ['hero_offer_FR', 'FR'],
    ]);
    expect(rows[0]).toMatchObject({
      account: '(main account)',
      campaign_id: campaignId,
      billing_type: 'CPI',
      bid_rate: 2.5,
      daily_cap_type: 'BUDGET',
      daily_cap: 60,
      total_budget: 600,
      tracking_method: 'APPSFLYER',
      click_url: 'https://track.example.com/c?o=hero',
      support_server_click: 'NO',
      os_version_min: '8.0',
      custom_ad_schedule: '{"1":"9,10,11"}',
      network: 'WIFI',
      target_device: 'PHONE',
      sync_status: 'EDITED',
    });
    expect(rows[1].bid_rate).toBe(1.5);
    expect(String(rows[0].sync_message)).toBe(
      `Cloned from offer ${id} ((main account)): start_time now: the source's start had passed; bid_rate the source's price for DE; caps from the source's budget group DE,FR; support_server_click NO: the add-on never sent the source one, and the offers list does not return it; creative sets from the source's Creative Ads rows. Review the row, then run Create new offers.`,
    );
    const sets = recordsOf(rt, 'Creative Sets');
    expect(new Set(sets.map(s => s.offer_name))).toEqual(
      new Set(['hero_offer_DE', 'hero_offer_FR']),
    );
    expect(recordsOf(rt, 'Creatives').filter(c => c.file !== '')).toEqual([]);

    const created = rt.call('createOffers') as Record<string, unknown>;

    expect(created).toMatchObject({ok: 2, invalid: 0, error: 0});
    for (const name of ['hero_offer_DE', 'hero_offer_FR']) {
      expect(md5sOf(emulator, MAIN, name)).toEqual(md5s);
      const [made] = offerNamed(emulator, MAIN, name);
      expect([made.tracking_method, made.click_url]).toEqual([
        'APPSFLYER',
        'https://track.example.com/c?o=hero',
      ]);
    }
    expect(
      emulator.requests.filter(r => r.method === 'POST').map(r => r.path),
    ).toEqual(['/api/open/v3/offer', '/api/open/v3/offer']);
  });
});

describe('cloneOffers into a sub-account', () => {
  it('takes its campaign of the same package; createOffers uploads the materials from their creative_url into it, every request signed by it', () => {
    const {rt, emulator, id, md5s, pkg} = clonable();
    const subCampaign = deliverableCampaign(emulator, SUB);
    emulator.updateCampaign(subCampaign, {package_name: pkg});

    clone(rt, {
      from: [{account: '', offer_id: id}],
      to: [
        {account: SUB, target_geo: 'DE,FR'},
        {account: SUB, target_geo: 'IT'},
      ],
    });

    expect(writes(emulator)).toEqual([]);
    const [row, other] = recordsOf(rt, 'New Offers');
    expect(row).toMatchObject({
      account: SUB,
      offer_name: 'hero_offer_DE_FR',
      campaign_id: subCampaign,
      target_geo: 'DE,FR',
      sync_status: 'EDITED',
    });
    expect(other).toMatchObject({offer_name: 'hero_offer_IT'});
    // The two clones share their materials: each is queued once.
    const files = recordsOf(rt, 'Creatives').filter(c => c.file !== '');
    expect(files.map(f => f.account)).toEqual(md5s.map(() => SUB));
    expect(files.map(f => f.file).sort()).toEqual(
      md5s.map(md5 =>
        expect.stringMatching(
          new RegExp(`^https://cdn\\.emulator\\.invalid/creatives/${md5}\\.`),
        ),
      ),
    );
    emulator.clearRequests();

    const created = rt.call('createOffers') as Record<string, unknown>;

    expect(created).toMatchObject({ok: 2, invalid: 0, error: 0});
    const signers = signedRequests(emulator);
    // Its keys were looked up (with the main account's) and kept by the clone.
    expect(signers.filter(r => r.signer !== SUB)).toEqual([]);
    expect(signers.filter(r => r.op.startsWith('POST creatives'))).toHaveLength(
      md5s.length,
    );
    expect(md5sOf(emulator, SUB, 'hero_offer_DE_FR')).toEqual(md5s);
    expect(md5sOf(emulator, SUB, 'hero_offer_IT')).toEqual(md5s);
    for (const md5 of md5s)
      expect(emulator.account(SUB).materials.get(md5)!.creative_md5).toBe(
        md5Hex(emulator.account(MAIN).materials.get(md5)!.bytes),
      );
    expect(offerNamed(emulator, SUB, 'hero_offer_DE_FR')[0].click_url).toBe(
      'https://track.example.com/c?o=hero',
    );
  });
});

describe('cloneOffers: bad input', () => {
  it('a material whose creative_url cannot be fetched: its Creatives row says so at upload, and the clone needing it is not created', () => {
    const {rt, emulator, id, md5s, pkg} = clonable();
    emulator.updateCampaign(deliverableCampaign(emulator, SUB), {
      package_name: pkg,
    });
    clone(rt, {
      from: [{account: '', offer_id: id}],
      to: [{account: SUB, target_geo: 'DE'}],
    });
    // The file is gone from where creative_url points (the emulator serves no such md5 now).
    emulator.account(MAIN).materials.delete(md5s[0]);
    emulator.clearRequests();

    rt.call('createOffers');

    const gone = recordsOf(rt, 'Creatives').find(c =>
      String(c.file).includes(md5s[0]),
    )!;
    expect([gone.sync_status, gone.sync_message]).toEqual([
      'INVALID',
      `file: ${String(gone.file)} answered HTTP 404: there is no file there. Nothing was uploaded.`,
    ]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({offer_id: ''});
    expect(offerNamed(emulator, SUB, 'hero_offer_DE')).toEqual([]);
    expect(
      emulator.requests.filter(r => r.path === '/api/open/v3/offer'),
    ).toEqual([]);
  });

  it('a target account with no campaign of the package: the row is INVALID naming campaign_id and the package; createOffers sends nothing for it', () => {
    const {rt, emulator, id, pkg} = clonable();
    for (const c of emulator.account(SUB).campaigns.values())
      if (c.package_name === pkg)
        emulator.updateCampaign(c.campaign_id, {package_name: 'com.other'});

    const summary = clone(rt, {
      from: [{account: '', offer_id: id}],
      to: [{account: SUB, target_geo: 'DE'}],
    });

    expect(summary).toMatchObject({invalid: 1});
    const [row] = recordsOf(rt, 'New Offers');
    expect(row.sync_status).toBe('INVALID');
    expect(String(row.sync_message)).toMatch(
      new RegExp(
        `^Cloned from offer ${id} \\(\\(main account\\)\\): campaign_id: account ${SUB} has no campaign of package ${pkg.replace(/\./g, '\\.')}\\. .* Nothing was sent\\.$`,
      ),
    );
    emulator.clearRequests();
    rt.call('createOffers');
    expect(writes(emulator)).toEqual([]);
  });

  it('a name already taken gets _2; a pattern that makes no offer name, an unknown account, geo or offer: a clear message, nothing written', () => {
    const {rt, emulator, id} = clonable();
    clone(rt, {
      from: [{account: '', offer_id: id}],
      to: [{account: '', target_geo: 'DE'}],
    });
    clone(rt, {
      from: [{account: '', offer_id: id}],
      to: [{account: '', target_geo: 'DE'}],
    });
    expect(recordsOf(rt, 'New Offers').map(r => r.offer_name)).toEqual([
      'hero_offer_DE',
      'hero_offer_DE_2',
    ]);
    expect(String(recordsOf(rt, 'New Offers')[1].sync_message)).toContain(
      'named hero_offer_DE_2: hero_offer_DE is taken in that account',
    );
    const refusals: Array<[unknown, string]> = [
      [
        {
          from: [{account: '', offer_id: id}],
          to: [{account: '', target_geo: 'DE'}],
          name: '{offer_name}-{geo}',
        },
        'Clone offers: the name pattern "{offer_name}-{geo}" has characters other than letters, digits and underscores outside its placeholders: offer names may hold only those (4.2). Nothing was written.',
      ],
      [
        {
          from: [{account: '', offer_id: id}],
          to: [{account: 'nobody_here', target_geo: 'DE'}],
        },
        'Clone offers: account "nobody_here" could not be read (The main account has no sub-account named "nobody_here": choose another account in the sidebar.): is it the main account or one of its sub-accounts? Nothing was written.',
      ],
      [
        {
          from: [{account: '', offer_id: id}],
          to: [{account: '', target_geo: 'DEU'}],
        },
        'Clone offers: the target geos "DEU" of account (main account) has "DEU", which is not a two-letter country code: write ALL or codes such as US,GB. Nothing was written.',
      ],
      [
        {
          from: [{account: '', offer_id: 999999}],
          to: [{account: '', target_geo: 'DE'}],
        },
        'Clone offers: offer 999999 of account (main account) is not in the Offers sheet as the last refresh left it: refresh offers, then select its row. Nothing was written.',
      ],
    ];
    emulator.clearRequests();
    for (const [spec, message] of refusals) {
      expect(() => clone(rt, spec)).toThrow(message);
    }
    expect(recordsOf(rt, 'New Offers')).toHaveLength(2);
    expect(writes(emulator)).toEqual([]);
  });
});

describe("the budget guard counts a clone's caps as new money", () => {
  it('asks before creating clones whose daily caps pass the ceiling of their currency; No creates none', () => {
    const {rt, emulator, id} = clonable();
    const currency = emulator.account(MAIN).currency;
    rt.call('saveSettings', {
      baseUrl: EMULATOR_URL,
      accessKey: DEMO_ACCOUNTS.main.accessKey,
      guard: {ceilings: `${currency} 100`},
    });
    clone(rt, {
      from: [{account: '', offer_id: id}],
      to: [
        {account: '', target_geo: 'DE'},
        {account: '', target_geo: 'FR'},
      ],
    });
    emulator.clearRequests();
    rt.ui.answerNextAlert('NO');

    rt.call('createOffers');

    const [question] = rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
    expect(question.title).toBe('Create offers past your daily cap ceiling?');
    expect(question.prompt).toContain(
      `New Offers row 2, offer hero_offer_DE: daily_cap 60, total_budget 600 (the daily caps this run's new offers add come to ${currency} 120, past your ${currency} ceiling of 100)`,
    );
    expect(writes(emulator)).toEqual([]);
    expect(recordsOf(rt, 'New Offers').map(r => r.sync_status)).toEqual([
      'EDITED',
      'EDITED',
    ]);
  });
});

describe('cloneOffers from an every-account selection', () => {
  it("the dialog's choices are the selected rows of both accounts; each is cloned with its own materials", () => {
    const {rt, emulator, id} = clonable({listsSubAccounts: true});
    const subCampaign = deliverableCampaign(emulator, SUB);
    const [subOffer] = [...emulator.account(SUB).offers.values()];
    emulator.updateOffer(subOffer.offer_id, {
      campaign_id: subCampaign,
      offer_name: 'sub_offer',
      bid_type: 'CPI',
      target_ad_type: 'REWARDED_VIDEO',
    });
    rt.call('setActingAccount', '*');
    rt.call('refreshAll');
    const offers = recordsOf(rt, 'Offers');
    const rowOf = (offerId: number) =>
      offers.findIndex(r => r.offer_id === offerId) + 2;
    const [first, second] = [rowOf(id), rowOf(subOffer.offer_id)].sort(
      (a, b) => a - b,
    );
    sheetOf(rt, 'Offers')
      .getRange(first, 1, second - first + 1, 3)
      .activate();

    const choices = rt.call('getCloneChoices') as {
      offers: Array<{account: string; offer_id: number}>;
    };

    expect(choices.offers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({account: '', offer_id: id}),
        expect.objectContaining({account: SUB, offer_id: subOffer.offer_id}),
      ]),
    );
    emulator.clearRequests();
    const from = choices.offers.filter(o =>
      [id, subOffer.offer_id].includes(o.offer_id),
    );
    clone(rt, {
      from: from.map(o => ({account: o.account, offer_id: o.offer_id})),
      to: [{account: SUB, target_geo: 'JP'}],
    });
    expect(writes(emulator)).toEqual([]);
    const rows = recordsOf(rt, 'New Offers');
    expect(rows.map(r => [r.account, r.offer_name]).sort()).toEqual(
      [
        [SUB, 'hero_offer_JP'],
        [SUB, 'sub_offer_JP'],
      ].sort(),
    );
    const sub = rows.find(r => r.offer_name === 'sub_offer_JP')!;
    expect(sub).toMatchObject({campaign_id: subCampaign});
    expect(String(sub.sync_message)).toContain(
      'its creative sets are to be filled in Creative Sets',
    );
  });
});

describe('cloneOffers then a create whose answer is lost', () => {
  it.each([
    ['the main account', ''],
    ['a sub-account', SUB],
  ])(
    'into %s: the next run adopts the offer the lost create made, one POST offer in all, its offer_id in the row',
    (_, account) => {
      const {rt, emulator, id, pkg} = clonable();
      emulator.updateCampaign(deliverableCampaign(emulator, SUB), {
        package_name: pkg,
      });
      clone(rt, {
        from: [{account: '', offer_id: id}],
        to: [{account, target_geo: 'DE'}],
      });
      createKilledBeforeAnswers(rt, emulator);
      expect(recordsOf(rt, 'New Offers')[0].offer_id).toBe('');

      rt.call('createOffers');

      const made = offerNamed(emulator, account || MAIN, 'hero_offer_DE');
      expect(made).toHaveLength(1);
      expect(
        emulator.requests.filter(
          r => r.method === 'POST' && r.path === '/api/open/v3/offer',
        ),
      ).toHaveLength(1);
      expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
        offer_id: made[0].offer_id,
        sync_status: 'OK',
        sync_message: `Offer ${made[0].offer_id} created (the answer to its create was lost; found by name); tracking set.`,
      });
    },
  );
});
