import {createOffers} from '../../../src/jobs/create/create-offers';
import {createdOffers} from '../../../src/state/created-offers';
import {STATE_SHEET, StateBook} from '../../../src/state/book';
import {Outbox} from '../../../src/state/outbox';
import {CREATIVE_SETS} from '../../../src/sheets/schemas/creative-sets';
import {CREATIVES} from '../../../src/sheets/schemas/creatives';
import {NEW_OFFERS} from '../../../src/sheets/schemas/new-offers';
import type {HttpRequest, HttpResponse} from '../../../src/platform/ports';
import {cpiOffer, createPlatform, fill} from './create-support';

const OFFER = '/api/open/v3/offer';
const OFFERS = '/api/open/v3/offers';
const UPLOAD = '/api/open/v3/creatives/upload';
const SOURCE = '/api/open/v3/creatives/source';
const TRACKING = '/api/open/v3/tracking';

/** Two offers, one set each; set 1 uses a file to upload, set 2 a material already listed. */
function twoOffers() {
  const env = createPlatform();
  const {workbook, files, campaignId, emulator} = env;
  const listed = [...emulator.account('demo_adv').materials.values()][0];
  files.add('drive-hero', 'hero.png', 'hero image bytes');
  fill(workbook, CREATIVES, [
    {file: 'drive-hero', creative_name: 'hero'},
    {
      creative_md5: listed.creative_md5,
      creative_name: listed.creative_name,
      creative_type: 'IMAGE',
    },
  ]);
  fill(workbook, NEW_OFFERS, [
    cpiOffer(campaignId, 'spring_us'),
    cpiOffer(campaignId, 'spring_gb', {target_geo: 'GB'}),
  ]);
  fill(workbook, CREATIVE_SETS, [
    {
      offer_name: 'spring_us',
      creative_set_name: 'set_a',
      geos: 'US',
      ad_outputs: '111',
      creatives: 'hero',
    },
    {
      offer_name: 'spring_gb',
      creative_set_name: 'set_b',
      geos: 'ALL',
      ad_outputs: '111,121',
      creatives: listed.creative_md5,
    },
  ]);
  return {...env, listed};
}

const paths = (env: ReturnType<typeof createPlatform>) =>
  env.emulator.requests.map(r => `${r.method} ${r.path}`);

describe('createOffers', () => {
  it('uploads the missing material, creates each offer, writes its id, then sets tracking', () => {
    const env = twoOffers();
    const summary = createOffers(env.platform);
    expect(paths(env)).toEqual([
      `GET ${OFFERS}`,
      `GET ${OFFERS}`,
      `POST ${UPLOAD}`,
      `GET ${SOURCE}`,
      `POST ${OFFER}`,
      `POST ${OFFER}`,
      `PUT ${TRACKING}`,
      `PUT ${TRACKING}`,
    ]);
    const rows = env.workbook.records('New Offers');
    const ids = rows.map(r => r.offer_id as number);
    expect(rows.map(r => [r.sync_status, r.sync_message])).toEqual(
      ids.map(id => ['OK', `Offer ${id} created; tracking set.`]),
    );
    const hero = env.workbook.records('Creatives')[0];
    expect(hero).toMatchObject({creative_name: 'hero', sync_status: 'OK'});
    expect(hero.creative_md5).toMatch(/^[0-9a-f]{32}$/);
    const us = env.emulator.offerView(ids[0])!;
    expect(us).toMatchObject({
      offer_name: 'spring_us',
      target_geo: 'US,GB',
      bid_type: 'CPI',
      tracking_method: 'APPSFLYER',
      click_url: 'https://track.example.com/click?o=spring_us',
      support_server_click: 'NO',
    });
    expect(us.creative_sets).toEqual([
      expect.objectContaining({
        creative_set_name: 'set_a',
        geos: ['US'],
        ad_outputs: [111],
        creatives: [{creative_name: 'hero', creative_md5: hero.creative_md5}],
      }),
    ]);
    expect(env.emulator.offerView(ids[1])!.creative_sets[0].creatives).toEqual([
      {
        creative_name: env.listed.creative_name,
        creative_md5: env.listed.creative_md5,
      },
    ]);
    expect(
      env.workbook
        .records('Creative Sets')
        .map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      ['OK', `Part of offer ${ids[0]}.`],
      ['OK', `Part of offer ${ids[1]}.`],
    ]);
    expect(summary).toMatchObject({
      job: 'createOffers',
      account: 'main account',
      ok: 2,
      invalid: 0,
      error: 0,
      requests: 8,
      message:
        '2 OK, 0 invalid, 0 error, 0 unchanged new offer rows (main account). You confirmed 2 offers with no budget limit past the budget guard.',
    });
  });

  it('a re-run sends nothing for rows already OK', () => {
    const env = twoOffers();
    createOffers(env.platform);
    env.emulator.clearRequests();
    expect(createOffers(env.platform)).toMatchObject({
      ok: 0,
      skipped: 2,
      requests: 0,
    });
    expect(env.emulator.requests).toEqual([]);
  });

  it('sends nothing at all for an INVALID row, not even its materials', () => {
    const env = twoOffers();
    env.workbook.edit('New Offers', 0, 'bid_rate', 0.001);
    env.workbook.edit('New Offers', 1, 'offer_name', 'x');
    createOffers(env.platform);
    expect(env.emulator.requests).toEqual([]);
    expect(
      env.workbook
        .records('New Offers')
        .map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'INVALID',
        'bid_rate must be at least 0.01 for CPI (got 0.001). Nothing was sent.',
      ],
      [
        'INVALID',
        'offer_name must be 3 to 95 characters long (it has 1); creative_sets: no Creative Sets row has offer_name x: add at least one (creative_set_name, geos, ad_outputs, creatives). Nothing was sent.',
      ],
    ]);
    expect(
      env.workbook
        .records('Creative Sets')
        .map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'INVALID',
        'Not created yet: New Offers row 2 is INVALID: bid_rate must be at least 0.01 for CPI (got 0.001). Nothing was sent.',
      ],
      [
        'INVALID',
        'offer_name spring_gb matches no New Offers row: check the name, or delete the row.',
      ],
    ]);
    expect(env.workbook.records('Creatives')[0].creative_md5).toBe('');
  });

  it('refuses a name the account already uses, and one used twice in the sheet', () => {
    const env = twoOffers();
    const taken = [...env.emulator.account('demo_adv').offers.values()][0];
    env.workbook.edit('New Offers', 0, 'offer_name', taken.offer_name);
    env.workbook.edit('Creative Sets', 0, 'offer_name', taken.offer_name);
    const summary = createOffers(env.platform);
    const [first] = env.workbook.records('New Offers');
    expect(first).toMatchObject({
      sync_status: 'INVALID',
      sync_message: `offer_name is already used by offer ${taken.offer_id} in this account: offer names must be unique. Nothing was sent.`,
      offer_id: '',
    });
    expect(summary).toMatchObject({ok: 1, invalid: 1});

    const twins = twoOffers();
    twins.workbook.edit('New Offers', 1, 'offer_name', 'spring_us');
    createOffers(twins.platform);
    expect(twins.workbook.records('New Offers')[1].sync_message).toContain(
      'offer_name is also used by New Offers row 2: offer names must be unique',
    );
  });

  it('names a creative the Creatives sheet does not have, on the offer and on the set', () => {
    const env = twoOffers();
    env.workbook.edit('Creative Sets', 0, 'creatives', 'hero,villain');
    createOffers(env.platform);
    const problem =
      'creatives names "villain", which is not in the Creatives sheet (as creative_md5, creative_name or file): add it there, or refresh the creative materials';
    expect(env.workbook.records('New Offers')[0].sync_message).toBe(
      `creative set "set_a" (Creative Sets row 2): ${problem}. Nothing was sent.`,
    );
    expect(env.workbook.records('Creative Sets')[0]).toMatchObject({
      sync_status: 'INVALID',
      sync_message: `${problem}. Nothing was sent.`,
    });
  });

  it('a material that cannot be read keeps its offer unsent, and says where to look', () => {
    const env = twoOffers();
    env.files.files.delete('drive-hero');
    createOffers(env.platform);
    expect(
      env.emulator.requests.some(
        r =>
          r.path === OFFER &&
          r.body &&
          (r.body as {offer_name: string}).offer_name === 'spring_us',
      ),
    ).toBe(false);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      sync_status: 'INVALID',
      sync_message:
        'material "hero" (Creatives row 2) could not be uploaded: see that row. Nothing was sent.',
    });
    expect(env.workbook.records('Creatives')[0]).toMatchObject({
      sync_status: 'INVALID',
      sync_message:
        'file: Drive file drive-hero is not one Offer Desk may open. Nothing was uploaded.',
    });
    expect(env.workbook.records('New Offers')[1].sync_status).toBe('OK');
  });

  it('reports Permission denied as the account lacking that billing type', () => {
    const env = twoOffers();
    env.emulator.setPermissions('demo_adv', ['CPE']);
    createOffers(env.platform);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      offer_id: '',
      sync_message:
        'billing_type: the main account lacks the permission to create CPI offers (the API answered "Permission denied"). Nothing was created. Change the row, or clear its sync_status, to send it again: unchanged, it is not sent again.',
    });
  });

  it('a refused create is not sent again unchanged, but is once its material changes', () => {
    const env = twoOffers();
    env.emulator.setPermissions('demo_adv', ['CPE']);
    createOffers(env.platform);
    const refused = env.workbook.records('New Offers');
    expect(refused.map(r => r.sync_status)).toEqual(['ERROR', 'ERROR']);
    // The material uploaded for the refused create is named as that create named it.
    env.emulator.clearRequests();
    expect(createOffers(env.platform).skipped).toBe(2);
    expect(paths(env)).toEqual([]);
    expect(env.workbook.records('New Offers')).toEqual(refused);
    // The row names the same creative, but its Creatives row now holds another file.
    env.files.add('drive-hero-2', 'hero2.png', 'other hero image bytes');
    env.workbook.edit('Creatives', 0, 'file', 'drive-hero-2');
    env.workbook.edit('Creatives', 0, 'creative_md5', '');
    env.emulator.clearRequests();
    expect(createOffers(env.platform).skipped).toBe(1);
    expect(paths(env)).toEqual([
      `GET ${OFFERS}`,
      `POST ${UPLOAD}`,
      `GET ${SOURCE}`,
      `POST ${OFFER}`,
    ]);
    expect(
      env.emulator.requests.map(
        r => (r.body as {offer_name?: string})?.offer_name,
      ),
    ).toContain('spring_us');
  });

  it('a refused row sent again, whose lookup then fails, is sent by the run after', () => {
    const env = twoOffers();
    env.emulator.setPermissions('demo_adv', ['CPE']);
    createOffers(env.platform);
    expect(env.workbook.records('New Offers')[0].sync_status).toBe('ERROR');
    // The user asks for it again; this time the name cannot be looked up.
    env.workbook.edit('New Offers', 0, 'sync_status', '');
    env.emulator.faults.configure({
      rules: [{kind: 'busy', method: 'GET', path: OFFERS}],
    });
    createOffers(env.platform);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: expect.stringMatching(
        /^Could not check that offer_name spring_us is not taken .* Run Create new offers again\.$/,
      ),
    });
    // Its row says to run again, and running again sends it.
    env.emulator.faults.configure({rules: []});
    env.emulator.setPermissions('demo_adv', ['CPI', 'CPE']);
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      sync_status: 'OK',
    });
  });

  it('a create refused without a verdict on its values (a 429) is sent again by the next run', () => {
    const env = twoOffers();
    env.emulator.faults.configure({
      rules: [{kind: 'rateLimit', method: 'POST', path: OFFER}],
    });
    createOffers(env.platform);
    const [us] = env.workbook.records('New Offers');
    expect(us).toMatchObject({offer_id: '', sync_status: 'ERROR'});
    expect(String(us.sync_message)).toMatch(/The next run sends it again\.$/);
    env.emulator.faults.configure({rules: []});
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(paths(env).filter(p => p === `POST ${OFFER}`)).toHaveLength(2);
    expect(env.workbook.records('New Offers').map(r => r.sync_status)).toEqual([
      'OK',
      'OK',
    ]);
  });

  describe('never creates an offer twice', () => {
    it('a dropped connection after the server applied the creates: both found by name, ids filled in', () => {
      const env = twoOffers();
      env.emulator.faults.configure({
        rules: [{kind: 'drop', method: 'POST', path: OFFER, count: 1}],
      });
      createOffers(env.platform);
      const rows = env.workbook.records('New Offers');
      expect(rows.map(r => r.sync_status)).toEqual(['OK', 'OK']);
      const made = [...env.emulator.account('demo_adv').offers.values()].filter(
        o => o.offer_name.startsWith('spring_'),
      );
      expect(made.map(o => o.offer_id).sort()).toEqual(
        rows.map(r => r.offer_id).sort(),
      );
      expect(paths(env).filter(p => p === `POST ${OFFER}`)).toHaveLength(2);
      expect(paths(env).filter(p => p === `GET ${OFFERS}`)).toHaveLength(4);
    });

    it('a create dropped before the server saw it: not found, so the re-run sends it once', () => {
      const env = twoOffers();
      env.emulator.faults.configure({
        rules: [
          {kind: 'drop', method: 'POST', path: OFFER, count: 1, applied: false},
        ],
      });
      createOffers(env.platform);
      const [us, gb] = env.workbook.records('New Offers');
      expect(us).toMatchObject({
        offer_id: '',
        sync_status: 'ERROR',
        sync_message:
          'Create sent as offer_name spring_us in account (main account), but its outcome is unknown (POST offer: network error: Address unavailable: https://api.emulator.test/api/open/v3/offer), and no offer named spring_us is listed: run Create new offers again; it looks the offer up by name first and sends it only if it still does not exist.',
      });
      expect(gb.sync_status).toBe('OK');
      env.emulator.clearRequests();
      createOffers(env.platform);
      expect(paths(env)).toEqual([
        `GET ${OFFERS}`,
        `POST ${OFFER}`,
        `PUT ${TRACKING}`,
      ]);
      expect(env.workbook.records('New Offers')[0].sync_status).toBe('OK');
      const named = [
        ...env.emulator.account('demo_adv').offers.values(),
      ].filter(o => o.offer_name === 'spring_us');
      expect(named).toHaveLength(1);
    });

    /** Rewrites the data of the answers to `path` as a server of another shape might send it. */
    function reshape(
      env: ReturnType<typeof createPlatform>,
      path: string,
      change: (data: Record<string, unknown>) => void,
    ): void {
      const {http} = env.platform;
      const edit = (request: HttpRequest, response: HttpResponse) => {
        if (!new URL(request.url).pathname.endsWith(path)) return response;
        const body = JSON.parse(response.text);
        for (const data of body.data?.list ?? [body.data]) change(data);
        return {...response, text: JSON.stringify(body)};
      };
      env.platform.http = {
        send: r => edit(r, http.send(r)),
        sendAll: rs => http.sendAll(rs).map((a, i) => edit(rs[i], a)),
      };
    }

    it('a success that names no offer_id: the offer is found by name, even listed without its campaign', () => {
      const env = twoOffers();
      reshape(env, OFFER, data => delete data.offer_id);
      reshape(env, OFFERS, data => delete data.campaign_id);
      createOffers(env.platform);
      expect(paths(env)).toEqual([
        `GET ${OFFERS}`,
        `GET ${OFFERS}`,
        `POST ${UPLOAD}`,
        `GET ${SOURCE}`,
        `POST ${OFFER}`,
        `POST ${OFFER}`,
        `GET ${OFFERS}`,
        `GET ${OFFERS}`,
        `PUT ${TRACKING}`,
        `PUT ${TRACKING}`,
      ]);
      const offers = [...env.emulator.account('demo_adv').offers.values()];
      const rows = env.workbook.records('New Offers');
      expect(
        rows.map(r => [r.offer_id, r.sync_status, r.sync_message]),
      ).toEqual(
        ['spring_us', 'spring_gb'].map(name => {
          const id = offers.find(o => o.offer_name === name)!.offer_id;
          return [
            id,
            'OK',
            `Offer ${id} created (the answer to its create was lost; found by name); tracking set.`,
          ];
        }),
      );
    });

    /**
     * Offers created, then the first row as a job that died after sending its create left it:
     * the create in the outbox, the row saying so.
     */
    function diedAfterSending() {
      const env = twoOffers();
      createOffers(env.platform);
      const made = env.workbook.records('New Offers')[0].offer_id;
      const book = StateBook.open(env.workbook);
      Outbox.of(book).post([
        {
          kind: 'offer create',
          job: 'createOffers',
          account: '',
          record: 'spring_us',
          request: {campaign_id: env.campaignId},
          time: '2026-03-01T09:00:00.000Z',
        },
      ]);
      book.save();
      env.workbook.edit('New Offers', 0, 'offer_id', '');
      env.workbook.edit('New Offers', 0, 'sync_status', 'ERROR');
      env.workbook.edit(
        'New Offers',
        0,
        'sync_message',
        'Create sent at 2026-03-01T09:00:00.000Z, but its answer was never recorded: run Create new offers again; it looks the offer up by name before sending anything.',
      );
      return {env, made};
    }

    it('a sent row whose lookup fails keeps its marker, so a later run still adopts its offer', () => {
      const {env, made} = diedAfterSending();
      // Busy on every attempt: a read is retried within the run.
      env.emulator.faults.configure({
        rules: [{kind: 'busy', method: 'GET', path: OFFERS}],
      });
      env.emulator.clearRequests();
      createOffers(env.platform);
      expect(paths(env)).toEqual(Array(4).fill(`GET ${OFFERS}`));
      expect(env.workbook.records('New Offers')[0]).toMatchObject({
        offer_id: '',
        sync_status: 'ERROR',
        sync_message:
          'Create sent as offer_name spring_us in account (main account) by an earlier run, and its outcome is still unknown: looking the offer up failed (GET offers: code 10500 system busy, please try again later); run Create new offers again; it looks the offer up by name before sending anything.',
      });
      env.emulator.faults.clear();
      env.emulator.clearRequests();
      createOffers(env.platform);
      expect(paths(env)).toEqual([`GET ${OFFERS}`, `PUT ${TRACKING}`]);
      expect(env.workbook.records('New Offers')[0]).toMatchObject({
        offer_id: made,
        sync_status: 'OK',
      });
    });

    it('a row renamed after its create was lost is not created again under the new name', () => {
      const {env, made} = diedAfterSending();
      env.workbook.edit(
        'New Offers',
        0,
        'sync_message',
        'Create sent as offer_name spring_us at 2026-03-01T09:00:00.000Z, but its answer was never recorded: run Create new offers again; it looks the offer up by name before sending anything.',
      );
      env.workbook.edit('New Offers', 0, 'offer_name', 'spring_us_v2');
      // The rename leaves the row without creative sets first: refused, its marker kept.
      env.emulator.clearRequests();
      createOffers(env.platform);
      expect(paths(env)).toEqual([]);
      expect(env.workbook.records('New Offers')[0]).toMatchObject({
        sync_status: 'INVALID',
        sync_message:
          'Create sent as offer_name spring_us in account (main account) by an earlier run, its outcome unknown; this row cannot go on: creative_sets: no Creative Sets row has offer_name spring_us_v2: add at least one (creative_set_name, geos, ad_outputs, creatives). Nothing was sent.',
      });
      env.workbook.edit('Creative Sets', 0, 'offer_name', 'spring_us_v2');
      createOffers(env.platform);
      expect(paths(env)).toEqual([`GET ${OFFERS}`, `GET ${OFFERS}`]);
      expect(env.workbook.records('New Offers')[0]).toMatchObject({
        offer_id: '',
        sync_status: 'ERROR',
        sync_message: `Create sent as offer_name spring_us in account (main account) by an earlier run made offer ${made}, but this row now says offer_name spring_us_v2: put spring_us back in offer_name and run Create new offers again to resume that offer (the API cannot rename it). Nothing was sent.`,
      });
      env.workbook.edit('New Offers', 0, 'offer_name', 'spring_us');
      env.workbook.edit('Creative Sets', 0, 'offer_name', 'spring_us');
      env.emulator.clearRequests();
      createOffers(env.platform);
      expect(paths(env)).toEqual([`GET ${OFFERS}`, `PUT ${TRACKING}`]);
      expect(env.workbook.records('New Offers')[0]).toMatchObject({
        offer_id: made,
        sync_status: 'OK',
      });
      expect(
        [...env.emulator.account('demo_adv').offers.values()].filter(o =>
          o.offer_name.startsWith('spring_us'),
        ),
      ).toHaveLength(1);
    });

    it('a job that died after sending: the re-run adopts the offer its create made', () => {
      const {env, made} = diedAfterSending();
      env.emulator.faults.clear();
      env.emulator.clearRequests();
      createOffers(env.platform);
      expect(paths(env)).toEqual([`GET ${OFFERS}`, `PUT ${TRACKING}`]);
      expect(env.workbook.records('New Offers')[0]).toMatchObject({
        offer_id: made,
        sync_status: 'OK',
        sync_message: `Offer ${made} created (the answer to its create was lost; found by name); tracking set.`,
      });
    });
  });

  it('when the API refuses the tracking the offer id stays; a re-run sends it again only once changed', () => {
    const env = twoOffers();
    env.workbook.edit('New Offers', 0, 'tracking_method', 'NO_SUCH_TRACKER');
    createOffers(env.platform);
    const first = env.workbook.records('New Offers')[0];
    expect(first.offer_id).toEqual(expect.any(Number));
    expect(first).toMatchObject({
      sync_status: 'ERROR',
      sync_message: `Offer ${first.offer_id} exists (offer_id filled in), but the API refused its tracking: PUT tracking: code 10000 error [tracking_method: The selected tracking_method is invalid.]. Change tracking_method, click_url or support_server_click, then run Create new offers again: only the tracking is sent, and not before it changes.`,
    });
    env.emulator.clearRequests();
    expect(createOffers(env.platform)).toMatchObject({skipped: 2, error: 0});
    expect(env.emulator.requests).toEqual([]);
    expect(env.workbook.records('New Offers')[0]).toEqual(first);
    env.workbook.edit('New Offers', 0, 'tracking_method', 'ADJUST');
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(paths(env)).toEqual([`PUT ${TRACKING}`]);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      sync_message: `Offer ${first.offer_id} exists; tracking set.`,
    });
    expect(
      env.emulator.offerView(first.offer_id as number)!.tracking_method,
    ).toBe('ADJUST');
  });

  it('a tracking that failed without a verdict (a lost connection, not applied) is read back, then sent again unchanged', () => {
    const env = twoOffers();
    env.emulator.faults.configure({
      rules: [{kind: 'drop', method: 'PUT', path: TRACKING, applied: false}],
    });
    createOffers(env.platform);
    const first = env.workbook.records('New Offers')[0];
    expect(first).toMatchObject({
      sync_status: 'ERROR',
      sync_message: expect.stringMatching(
        /^Offer \d+ exists \(offer_id filled in\), but the answer to setting its tracking was lost \(PUT tracking: outcome unknown \(PUT tracking: network error: .+\)\): it may or may not be set\. Run Create new offers again: it reads the tracking back and sends it only if it is not set\.$/,
      ),
    });
    env.emulator.faults.clear();
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(paths(env)).toEqual([
      `GET ${OFFERS}`,
      `PUT ${TRACKING}`,
      `PUT ${TRACKING}`,
    ]);
    expect(env.workbook.records('New Offers').map(r => r.sync_status)).toEqual([
      'OK',
      'OK',
    ]);
  });

  it('near the time limit it starts nothing new, says what is left, and a re-run continues', () => {
    const env = twoOffers();
    env.files.onRead = () => env.platform.clock.sleep(5 * 60 * 1000);
    const summary = createOffers(env.platform);
    expect(paths(env)).toEqual([
      `GET ${OFFERS}`,
      `GET ${OFFERS}`,
      `POST ${UPLOAD}`,
      `GET ${SOURCE}`,
    ]);
    expect(summary).toMatchObject({ok: 0, remaining: 2});
    expect(summary.message).toBe(
      '0 OK, 0 invalid, 0 error, 0 unchanged new offer rows (main account). 2 rows left for lack of time: run it again to continue. You confirmed 2 offers with no budget limit past the budget guard.',
    );
    const late = [
      'EDITED',
      'Not sent yet: the time ran out. Run Create new offers again to continue.',
    ];
    expect(
      env.workbook
        .records('New Offers')
        .map(r => [r.sync_status, r.sync_message]),
    ).toEqual([late, late]);
    expect(env.workbook.records('Creatives')[0].creative_md5).toMatch(
      /^[0-9a-f]{32}$/,
    );
    env.emulator.clearRequests();
    expect(createOffers(env.platform)).toMatchObject({ok: 2, remaining: 0});
    expect(paths(env)).toEqual([
      `GET ${OFFERS}`,
      `GET ${OFFERS}`,
      `POST ${OFFER}`,
      `POST ${OFFER}`,
      `PUT ${TRACKING}`,
      `PUT ${TRACKING}`,
    ]);
  });
});

describe('createOffers: which offers a row may resume', () => {
  /** Sheets as an earlier version left them: offers created, no memory of the offers made. */
  function madeBeforeTheMemo() {
    const env = twoOffers();
    createOffers(env.platform);
    env.workbook.sheets.delete(STATE_SHEET);
    const [us, gb] = env.workbook.records('New Offers');
    return {...env, us, gb};
  }

  it("an earlier version's finished row (OK, its own message) stays done, and is remembered", () => {
    const env = madeBeforeTheMemo();
    env.emulator.clearRequests();
    expect(createOffers(env.platform)).toMatchObject({ok: 0, skipped: 2});
    expect(env.emulator.requests).toEqual([]);
    const book = StateBook.open(env.workbook);
    expect(createdOffers(book, env.workbook)).toEqual({
      [String(env.us.offer_id)]: {
        offer_name: 'spring_us',
        campaign_id: env.campaignId,
        account: '',
      },
      [String(env.gb.offer_id)]: {
        offer_name: 'spring_gb',
        campaign_id: env.campaignId,
        account: '',
      },
    });
  });

  it("an earlier version's unfinished row is refused: nothing tells it from a copy", () => {
    const env = madeBeforeTheMemo();
    env.workbook.edit('New Offers', 0, 'sync_status', 'ERROR');
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(env.emulator.requests).toEqual([]);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      offer_id: env.us.offer_id,
      sync_status: 'INVALID',
      sync_message: `offer_id ${env.us.offer_id}: this sheet has no record of creating offer ${env.us.offer_id} from this row (a row copied from Offers, say), so nothing is sent for it: clear offer_id to create a new offer from this row, or edit offer ${env.us.offer_id} in the Offers sheet. Nothing was sent.`,
    });
  });

  it('a row whose campaign_id was changed after its offer was made is refused', () => {
    const env = twoOffers();
    env.workbook.edit('New Offers', 0, 'tracking_method', 'NO_SUCH_TRACKER');
    createOffers(env.platform);
    const [us] = env.workbook.records('New Offers');
    expect(us.sync_status).toBe('ERROR');
    env.workbook.edit('New Offers', 0, 'campaign_id', env.campaignId + 1);
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(env.emulator.requests).toEqual([]);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      sync_status: 'INVALID',
      sync_message: expect.stringContaining(
        `offer ${us.offer_id} was created from the row of offer_name spring_us in campaign ${env.campaignId}, not from this one`,
      ),
    });
  });

  it('an offer_id that is not an id is refused, quoting only the start of the cell', () => {
    const env = twoOffers();
    env.workbook.edit('New Offers', 0, 'offer_id', `id ${'x'.repeat(5000)}`);
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(env.workbook.records('New Offers')[0]).toMatchObject({
      sync_status: 'INVALID',
      sync_message: `offer_id "id ${'x'.repeat(34)}..." (5003 characters) is not an offer id: clear it to create the offer, or write back the id of the offer Offer Desk created from this row.`,
    });
    // Only the other row is created.
    expect(paths(env)).toEqual([
      `GET ${OFFERS}`,
      `POST ${OFFER}`,
      `PUT ${TRACKING}`,
    ]);
  });

  it('a renamed copy above the row an offer was made from takes nothing from it', () => {
    const env = twoOffers();
    env.workbook.edit('New Offers', 1, 'tracking_method', 'NO_SUCH_TRACKER');
    createOffers(env.platform);
    const [us, gb] = env.workbook.records('New Offers');
    env.workbook.edit('New Offers', 0, 'offer_id', gb.offer_id);
    env.workbook.edit('New Offers', 1, 'tracking_method', 'ADJUST');
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(paths(env)).toEqual([`PUT ${TRACKING}`]);
    expect(
      env.workbook.records('New Offers').map(r => [r.offer_id, r.sync_status]),
    ).toEqual([
      [gb.offer_id, 'INVALID'],
      [gb.offer_id, 'OK'],
    ]);
    expect(us.offer_id).not.toBe(gb.offer_id);
  });

  it('two rows with the offer_id of one offer made from them: the lower one is a copy', () => {
    const env = twoOffers();
    env.workbook.edit('New Offers', 0, 'tracking_method', 'NO_SUCH_TRACKER');
    createOffers(env.platform);
    const [us, gb] = env.workbook.records('New Offers');
    const sheet = env.workbook.sheet('New Offers')!;
    sheet.write(4, 1, [sheet.grid()[1]]);
    env.workbook.edit('New Offers', 0, 'tracking_method', 'ADJUST');
    env.emulator.clearRequests();
    createOffers(env.platform);
    expect(paths(env)).toEqual([`PUT ${TRACKING}`]);
    const rows = env.workbook.records('New Offers');
    expect(rows.map(r => [r.offer_id, r.sync_status])).toEqual([
      [us.offer_id, 'OK'],
      [gb.offer_id, 'OK'],
      [us.offer_id, 'INVALID'],
    ]);
    expect(rows[2].sync_message).toBe(
      `offer_id ${us.offer_id} is also on a row above, which offer ${us.offer_id} was created from (a copied row?): clear offer_id to create a new offer from this row, or edit offer ${us.offer_id} in the Offers sheet. Nothing was sent.`,
    );
  });
});
