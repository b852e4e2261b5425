/**
 * Issue 13, "The `already existed` upload answer": uploadCreatives and createOffers as the
 * built dist/Code.js runs them against the emulator, across every shape the emulator can give
 * that answer (local/emulator/README.md, assumption 54). The material on the server has a
 * name with spaces, dots, commas, parentheses and non-ASCII letters: it must reach the
 * Creatives row and the offer's creative_sets whole, and where the answer names no name, it
 * is looked up by md5 (one creatives/source request) instead of guessed.
 */
import {
  Emulator,
  type DuplicateUploadShape,
  type EmulatorOptions,
  type FaultRule,
} from '../../local/emulator';
import {createHash} from 'node:crypto';
import {EXCEEDED_TIME, type Runtime} from '../../local/runtime';
import {driveFiles, uploadDirectly} from '../support/materials';
import {
  cpiOfferRow,
  offerDesk,
  recordsOf,
  typeInto,
} from '../support/offer-desk';
import {RELEASE_3, upgradeToThisRelease} from '../support/releases';

const UPLOAD = '/api/open/v3/creatives/upload';
const SOURCE = '/api/open/v3/creatives/source';
const OFFER = '/api/open/v3/offer';
const OFFERS = '/api/open/v3/offers';
const TRACKING = '/api/open/v3/tracking';
const NAME = 'Spring Banner, v2.0 (été) ☀';

/** The banner, put on the server before the add-on sees it and named NAME there. */
function bannerOnServer(emulator: Emulator): string {
  const md5 = uploadDirectly(emulator, 'banner.png', 'banner image');
  emulator.account('demo_adv').materials.get(md5)!.creative_name = NAME;
  emulator.clearRequests();
  return md5;
}

/** A desk whose Creatives sheet has the banner (on the server already) and a new image. */
function deskWithMaterials(options: EmulatorOptions) {
  const drive = driveFiles({
    '1OldBannerFileId': ['banner.png', 'banner image'],
    '1HeroImageFileId': ['hero.png', 'hero image'],
  });
  const desk = offerDesk({offers: 5, ...options}, {drive});
  const banner = bannerOnServer(desk.emulator);
  const {rt} = desk;
  // The create sheets exist once a create job has run (with nothing to do).
  rt.call('uploadCreatives');
  rt.call('createOffers');
  typeInto(rt, 'Creatives', 2, 'file', '1OldBannerFileId');
  typeInto(rt, 'Creatives', 3, 'file', '1HeroImageFileId');
  typeInto(rt, 'Creatives', 3, 'creative_name', 'hero');
  return {...desk, banner};
}

const sent = (emulator: Emulator) =>
  emulator.requests.map(r =>
    r.path === SOURCE
      ? `${r.method} ${r.path} creative_md5=${r.query.creative_md5}`
      : `${r.method} ${r.path}`,
  );

const cells = (rt: Parameters<typeof recordsOf>[0]) =>
  recordsOf(rt, 'Creatives').map(r => [
    r.creative_md5,
    r.creative_name,
    r.sync_status,
    r.sync_message,
  ]);

describe('uploadCreatives: the "already existed" answer, in every shape', () => {
  /** Shape, HTTP status, the answer's text that says it, and whether it names the name. */
  const shapes: Array<[DuplicateUploadShape, number, string, boolean]> = [
    [
      'msgAndData',
      200,
      'creative already existed, fmd5: <md5>, name: <name>',
      true,
    ],
    ['msg', 200, 'file already existed, fmd5: <md5>, name: <name>', true],
    ['msg', 409, 'file already existed, fmd5: <md5>, name: <name>', true],
    ['msg', 500, 'file already existed, fmd5: <md5>, name: <name>', true],
    ['data', 422, 'already existed', true],
    ['dataText', 200, 'already existed', true],
    ['nested', 200, 'already existed', true],
    ['md5Only', 200, 'creative already existed', false],
    ['validation', 200, 'The file has already existed (fmd5 <md5>).', false],
  ];

  it.each(shapes)(
    '%s (HTTP %s): md5 and the whole name reach the row and the offer; a missing name is looked up once',
    (shape, status, said, names) => {
      const {rt, emulator, banner} = deskWithMaterials({
        duplicateUploadShape: shape,
        duplicateUploadStatus: status,
      });
      const answer = said.replace('<md5>', banner).replace('<name>', NAME);

      rt.call('uploadCreatives');

      const hero = recordsOf(rt, 'Creatives')[1].creative_md5 as string;
      // One look-up of both: the name where the answer had none, the type and size of each.
      expect(sent(emulator)).toEqual([
        `POST ${UPLOAD}`,
        `POST ${UPLOAD}`,
        `GET ${SOURCE} creative_md5=${banner},${hero}`,
      ]);
      const how = names
        ? ''
        : ', naming no creative_name, so the md5 was looked up';
      expect(cells(rt)).toEqual([
        [
          banner,
          NAME,
          'OK',
          `Already on the server (the API answered "${answer}"${how}): creative_md5 ${banner} and creative_name ${NAME} filled in.`,
        ],
        [
          hero,
          'hero',
          'OK',
          `Uploaded: creative_md5 ${hero}, creative_name hero.`,
        ],
      ]);
      expectOfferUses(rt, emulator, [
        {creative_name: NAME, creative_md5: banner},
        {creative_name: 'hero', creative_md5: hero},
      ]);
    },
  );

  it('looks up all unnamed md5s of a run in one request', () => {
    const {rt, emulator, banner} = deskWithMaterials({
      duplicateUploadShape: 'md5Only',
    });
    rt.call('uploadCreatives');
    const hero = recordsOf(rt, 'Creatives')[1].creative_md5 as string;
    typeInto(rt, 'Creatives', 4, 'file', '1OldBannerFileId');
    typeInto(rt, 'Creatives', 5, 'file', '1HeroImageFileId');
    emulator.clearRequests();

    rt.call('uploadCreatives');

    expect(sent(emulator)).toEqual([
      `POST ${UPLOAD}`,
      `POST ${UPLOAD}`,
      `GET ${SOURCE} creative_md5=${banner},${hero}`,
    ]);
    expect(
      recordsOf(rt, 'Creatives')
        .slice(2)
        .map(r => [r.creative_md5, r.creative_name, r.sync_status]),
    ).toEqual([
      [banner, NAME, 'OK'],
      [hero, 'hero', 'OK'],
    ]);
  });

  it('when the server does not list the md5 it says exists, the row says so, and offers using it send nothing', () => {
    const {rt, emulator, banner} = deskWithMaterials({
      duplicateUploadShape: 'md5Only',
    });
    // A listing that lags behind the upload's duplicate check.
    const materials = emulator.account('demo_adv').materials;
    const all = materials.values.bind(materials);
    materials.values = () =>
      [...all()].filter(m => m.creative_md5 !== banner).values();

    rt.call('uploadCreatives');

    const hero = recordsOf(rt, 'Creatives')[1].creative_md5 as string;
    expect(sent(emulator)).toEqual([
      `POST ${UPLOAD}`,
      `POST ${UPLOAD}`,
      `GET ${SOURCE} creative_md5=${banner},${hero}`,
    ]);
    expect(cells(rt)[0]).toEqual([
      '',
      '',
      'ERROR',
      `The API answered "creative already existed": material ${banner} is already on the server, but creatives/source does not list that md5, so its creative_name is unknown and nothing was filled in. Run Refresh creative materials and use the material's own row if it appears; otherwise run Upload creative materials again later.`,
    ]);

    typeOffer(rt, emulator, '1OldBannerFileId');
    rt.call('createOffers');
    // The row has a status: its md5 is looked up before the file is sent again.
    expect(sent(emulator)).toEqual([
      `GET ${OFFERS}`,
      `GET ${SOURCE} creative_md5=${banner}`,
      `POST ${UPLOAD}`,
      `GET ${SOURCE} creative_md5=${banner}`,
    ]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: '',
      sync_status: 'ERROR',
      sync_message:
        'material "1OldBannerFileId" (Creatives row 2) could not be uploaded: see that row. Nothing was sent.',
    });
    expect(cells(rt)[0].slice(0, 3)).toEqual(['', '', 'ERROR']);

    materials.values = all;
    expectRerunNamesBanner(rt, emulator, banner);
  });

  it('an answer that names no md5 fills in nothing, and says where to find the material', () => {
    const {rt, emulator} = deskWithMaterials({});
    emulator.faults.add({
      kind: 'busy',
      method: 'POST',
      path: UPLOAD,
      code: 10008,
      msg: 'file already existed',
      count: 2,
    });

    rt.call('uploadCreatives');

    expect(sent(emulator)).toEqual([`POST ${UPLOAD}`, `POST ${UPLOAD}`]);
    const message =
      'The API answered "file already existed" but named no creative_md5 that could be read, so nothing was filled in. Run Refresh creative materials: the material is listed in a row of its own; then delete this row.';
    expect(cells(rt)).toEqual([
      ['', '', 'ERROR', message],
      ['', 'hero', 'ERROR', message],
    ]);
  });

  it('when the lookup fails, the row says so and the next run looks again', () => {
    const {rt, emulator, banner} = deskWithMaterials({
      duplicateUploadShape: 'md5Only',
    });
    // Busy on every attempt: a read is retried within the run, so one busy answer would pass.
    emulator.faults.add({kind: 'busy', method: 'GET', path: SOURCE});

    rt.call('uploadCreatives');

    expect(cells(rt)[0]).toEqual([
      '',
      '',
      'ERROR',
      `The API answered "creative already existed": material ${banner} is already on the server, but looking up its creative_name failed (GET creatives/source: code 10500 system busy, please try again later), so nothing was filled in. Run Upload creative materials again.`,
    ]);
    emulator.faults.clear();
    expectRerunNamesBanner(rt, emulator, banner);
  });
});

/** The next run looks the banner's md5 up first and fills the row in, sending no bytes. */
function expectRerunNamesBanner(
  rt: Parameters<typeof recordsOf>[0],
  emulator: Emulator,
  banner: string,
): void {
  emulator.clearRequests();
  rt.call('uploadCreatives');
  expect(sent(emulator)).toEqual([`GET ${SOURCE} creative_md5=${banner}`]);
  expect(cells(rt)[0].slice(0, 3)).toEqual([banner, NAME, 'OK']);
}

/**
 * createOffers for one CPI offer whose creative set names both materials by md5: the create
 * request carries `creatives` exactly.
 */
function expectOfferUses(
  rt: Parameters<typeof recordsOf>[0],
  emulator: Emulator,
  creatives: Array<{creative_name: string; creative_md5: string}>,
): void {
  typeOffer(rt, emulator, creatives.map(c => c.creative_md5).join(','));

  rt.call('createOffers');

  expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
    `GET ${OFFERS}`,
    `POST ${OFFER}`,
    `PUT ${TRACKING}`,
  ]);
  const create = emulator.requests[1].body as {creative_sets: unknown[]};
  expect(create.creative_sets).toEqual([
    {
      creative_set_name: 'images',
      geos: ['ALL'],
      ad_outputs: [111],
      creatives,
    },
  ]);
  expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
    sync_status: 'OK',
  });
}

/** A CPI offer in New Offers with one creative set of the materials `creatives` names. */
function typeOffer(
  rt: Parameters<typeof recordsOf>[0],
  emulator: Emulator,
  creatives: string,
): void {
  const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
    c =>
      c.status === 'RUNNING' &&
      c.maintain_by === 'ADV' &&
      c.promotion_type === 'APP',
  )!.campaign_id;
  for (const [header, text] of Object.entries(
    cpiOfferRow(campaign, 'uploads_offer'),
  )) {
    typeInto(rt, 'New Offers', 2, header, text);
  }
  for (const [header, text] of Object.entries({
    offer_name: 'uploads_offer',
    creative_set_name: 'images',
    geos: 'ALL',
    ad_outputs: '111',
    creatives,
  })) {
    typeInto(rt, 'Creative Sets', 2, header, text);
  }
  emulator.clearRequests();
}

describe('uploadCreatives run again after its upload went out and no answer came back', () => {
  /**
   * A desk with one new file in Creatives, the upload answered by `fault` once; the add-on
   * the one in `distDir` (this release's by default).
   */
  function heroUploadLost(fault: FaultRule, distDir?: string) {
    const drive = driveFiles({'1HeroImageFileId': ['hero.png', 'hero image']});
    const {rt, emulator} = offerDesk({offers: 1}, {drive, distDir});
    rt.call('uploadCreatives');
    typeInto(rt, 'Creatives', 2, 'file', '1HeroImageFileId');
    typeInto(rt, 'Creatives', 2, 'creative_name', 'hero');
    emulator.faults.add(fault);
    return {rt, emulator, materials: materialsOf(emulator)};
  }

  const materialsOf = (emulator: Emulator) =>
    emulator.account('demo_adv').materials.size;

  /** The re-run looks the md5 up, sends no byte, and fills the row in from the server. */
  function expectFoundNotSent(
    rt: Runtime,
    emulator: Emulator,
    materials: number,
  ) {
    const md5 = createHash('md5').update('hero image').digest('hex');
    expect(emulator.requests.filter(r => r.path === UPLOAD)).toHaveLength(1);
    emulator.faults.clear();
    emulator.clearRequests();
    const summary = rt.call('uploadCreatives');
    expect(sent(emulator)).toEqual([`GET ${SOURCE} creative_md5=${md5}`]);
    expect(summary).toMatchObject({ok: 1, error: 0, requests: 1});
    expect(cells(rt)).toEqual([
      [
        md5,
        'hero',
        'OK',
        `Already on the server (its md5 is listed, so nothing was sent): creative_md5 ${md5} and creative_name hero filled in.`,
      ],
    ]);
    expect(recordsOf(rt, 'Creatives')[0]).toMatchObject({
      creative_type: 'IMAGE',
    });
    expect(materialsOf(emulator)).toBe(materials + 1);
  }

  it.each<[string, FaultRule]>([
    [
      'a 5xx',
      {kind: 'error', method: 'POST', path: UPLOAD, applied: true, count: 1},
    ],
    [
      'a lost connection',
      {kind: 'drop', method: 'POST', path: UPLOAD, count: 1},
    ],
  ])('after %s: the row says the outcome is unknown', (_, fault) => {
    const {rt, emulator, materials} = heroUploadLost(fault);
    rt.call('uploadCreatives');
    expect(cells(rt)[0].slice(0, 3)).toEqual(['', 'hero', 'ERROR']);
    expectFoundNotSent(rt, emulator, materials);
  });

  it.each([
    ['a preview', (rt: Runtime) => rt.call('uploadCreatives', {dryRun: true})],
    [
      'its status cleared by hand',
      (rt: Runtime) => typeInto(rt, 'Creatives', 2, 'sync_status', ''),
    ],
  ])(
    'after a lost connection and then %s: the upload is still out, looked up, not sent again',
    (_, then) => {
      const {rt, emulator, materials} = heroUploadLost({
        kind: 'drop',
        method: 'POST',
        path: UPLOAD,
        count: 1,
      });
      rt.call('uploadCreatives');
      then(rt);
      expect(cells(rt)[0][2]).not.toBe('ERROR');
      expectFoundNotSent(rt, emulator, materials);
    },
  );

  it.each([
    ['this release', undefined],
    ['the release before the outbox (its memo of uploads out)', RELEASE_3],
  ])('after a run of %s killed while the upload was out', (_, first) => {
    const {rt, emulator, materials} = heroUploadLost(
      {kind: 'slow', method: 'POST', path: UPLOAD, latencyMs: 400000},
      first,
    );
    expect(() => rt.call('uploadCreatives')).toThrow(EXCEEDED_TIME);
    expect(cells(rt)[0].slice(0, 3)).toEqual(['', 'hero', '']);
    if (first) upgradeToThisRelease(rt);
    expectFoundNotSent(rt, emulator, materials);
  });
});
