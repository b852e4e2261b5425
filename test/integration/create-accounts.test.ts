/**
 * Issue 25 (DESIGN 4.3, 4.4) on the built add-on: createOffers and uploadCreatives sign each
 * row's requests with the keys of the account its `account` cell names, whichever account
 * acts; acting as every account, a row that names none is INVALID; a create whose answer was
 * lost is looked up with the keys that sent it, whoever runs again.
 */
import {DEMO_ACCOUNTS, Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {signedRequests} from '../support/accounts';
import {driveFiles} from '../support/materials';
import {
  createKilledBeforeAnswers,
  cpiOfferRow as cpi,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  typeRows,
} from '../support/offer-desk';
import {RELEASE_3, upgradeToThisRelease} from '../support/releases';

const MAIN = DEMO_ACCOUNTS.main.name;
const SUB = DEMO_ACCOUNTS.subB.name;

/** Each request as `op signer`, in the order the emulator saw them. */
const signed = (emulator: Emulator) =>
  signedRequests(emulator).map(r => `${r.op} ${r.signer}`);

/** The sheets made (a create job's first run makes them); the requests log cleared. */
function withSheets(rt: Runtime, emulator: Emulator): void {
  rt.call('createOffers');
  emulator.clearRequests();
}

/** A material of `account` already on the server: its md5 and name, for a Creatives row. */
function listedMaterial(emulator: Emulator, account: string) {
  const [md5, material] = [...emulator.account(account).materials][0];
  return {creative_md5: md5, creative_name: String(material.creative_name)};
}

/** New Offers and Creative Sets rows: one offer per entry, in `account` (a cell as typed). */
function typeOffers(
  rt: Runtime,
  emulator: Emulator,
  offers: Array<{name: string; account: string; owner: string; md5: string}>,
): void {
  typeRows(
    rt,
    'New Offers',
    offers.map(o => ({
      account: o.account,
      ...cpi(deliverableCampaign(emulator, o.owner), o.name),
    })),
  );
  typeRows(
    rt,
    'Creative Sets',
    offers.map(o => ({
      offer_name: o.name,
      creative_set_name: 'set',
      geos: 'ALL',
      ad_outputs: '111',
      creatives: o.md5,
    })),
  );
}

const offersNamed = (emulator: Emulator, account: string, name: string) =>
  [...emulator.account(account).offers.values()].filter(
    o => o.offer_name === name,
  );

describe('createOffers as the main account, a row of a sub-account', () => {
  it('uploads its material, looks its name up, creates it and sets its tracking, all signed by the sub-account', () => {
    const drive = driveFiles({'1SubHeroFileId': ['hero.png', 'sub hero']});
    const {rt, emulator} = offerDesk({}, {drive});
    withSheets(rt, emulator);
    typeRows(rt, 'Creatives', [
      {account: SUB, file: '1SubHeroFileId', creative_name: 'sub_hero'},
    ]);
    typeOffers(rt, emulator, [
      {name: 'sub_offer', account: SUB, owner: SUB, md5: 'sub_hero'},
    ]);

    const summary = rt.call('createOffers') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 1, invalid: 0, error: 0});
    expect(signed(emulator)).toEqual([
      // The sub-account's keys, looked up with the main account's (API part 5).
      `GET sub_adv_account ${MAIN}`,
      `GET offers ${SUB}`,
      `POST creatives/upload ${SUB}`,
      `GET creatives/source ${SUB}`,
      `POST offer ${SUB}`,
      `PUT tracking ${SUB}`,
    ]);
    const [row] = recordsOf(rt, 'New Offers');
    expect(row).toMatchObject({account: SUB, sync_status: 'OK'});
    expect(emulator.account(SUB).offers.has(row.offer_id as number)).toBe(true);
    expect(offersNamed(emulator, MAIN, 'sub_offer')).toEqual([]);
    const [material] = recordsOf(rt, 'Creatives');
    expect(material.account).toBe(SUB);
    expect(
      emulator.account(SUB).materials.has(String(material.creative_md5)),
    ).toBe(true);
    expect(
      emulator.account(MAIN).materials.has(String(material.creative_md5)),
    ).toBe(false);
  });

  it("a creative set names only its own account's materials", () => {
    const {rt, emulator} = offerDesk();
    withSheets(rt, emulator);
    typeRows(rt, 'Creatives', [
      {account: '(main account)', ...listedMaterial(emulator, MAIN)},
    ]);
    const mainMd5 = listedMaterial(emulator, MAIN).creative_md5;
    typeOffers(rt, emulator, [
      {name: 'sub_offer', account: SUB, owner: SUB, md5: mainMd5},
    ]);

    rt.call('createOffers');

    // Only the lookup of the sub-account's keys, a read.
    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      'GET /api/open/v3/sub_adv_account',
    ]);
    expect(recordsOf(rt, 'Creative Sets')[0]).toMatchObject({
      sync_status: 'INVALID',
      sync_message: `creatives names "${mainMd5}", the material of Creatives row 2, which is not account ${SUB}'s: a creative set uses its own account's materials (add a row of that account for it). Nothing was sent.`,
    });
  });
});

describe('createOffers: a row naming a sub-account the main account has not', () => {
  it('refuses that row alone, naming the column and the known accounts; the other row is created', () => {
    const {rt, emulator} = offerDesk();
    withSheets(rt, emulator);
    const material = listedMaterial(emulator, MAIN);
    typeRows(rt, 'Creatives', [material]);
    typeOffers(rt, emulator, [
      {
        name: 'main_offer',
        account: '',
        owner: MAIN,
        md5: material.creative_md5,
      },
      {
        name: 'nobody_offer',
        account: 'no_such_sub',
        owner: MAIN,
        md5: material.creative_md5,
      },
    ]);

    const summary = rt.call('createOffers') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 1, invalid: 1});
    expect(signed(emulator).filter(r => r.startsWith('POST'))).toEqual([
      `POST offer ${MAIN}`,
    ]);
    const [main, nobody] = recordsOf(rt, 'New Offers');
    expect(main.sync_status).toBe('OK');
    expect(nobody).toMatchObject({
      offer_id: '',
      sync_status: 'INVALID',
      sync_message:
        'account "no_such_sub" is no account known here: write (main account) (Refresh sub-accounts lists the main account\'s sub-accounts in the Sub-accounts sheet). Nothing was sent.',
    });
  });
});

describe('uploadCreatives as the main account', () => {
  it("uploads each row to the account its cell names (empty: the acting account's), and fills the cell", () => {
    const drive = driveFiles({
      '1SubFileId': ['sub.png', 'sub material'],
      '1MainFileId': ['main.png', 'main material'],
    });
    const {rt, emulator} = offerDesk({}, {drive});
    rt.call('uploadCreatives');
    typeRows(rt, 'Creatives', [
      {account: SUB, file: '1SubFileId'},
      {file: '1MainFileId'},
    ]);
    emulator.clearRequests();

    const summary = rt.call('uploadCreatives') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 2, invalid: 0, error: 0});
    expect(signed(emulator).filter(r => r.startsWith('POST'))).toEqual([
      `POST creatives/upload ${SUB}`,
      `POST creatives/upload ${MAIN}`,
    ]);
    const [sub, main] = recordsOf(rt, 'Creatives');
    expect([sub.account, main.account]).toEqual([SUB, '(main account)']);
    expect(emulator.account(SUB).materials.has(String(sub.creative_md5))).toBe(
      true,
    );
    expect(
      emulator.account(MAIN).materials.has(String(main.creative_md5)),
    ).toBe(true);
  });
});

describe('createOffers as every account', () => {
  it('creates the rows of two accounts in one run, each signed by its own account', () => {
    const {rt, emulator} = offerDesk();
    rt.call('setActingAccount', '*');
    withSheets(rt, emulator);
    const mainMaterial = listedMaterial(emulator, MAIN);
    const subMaterial = listedMaterial(emulator, SUB);
    typeRows(rt, 'Creatives', [
      {account: '(main account)', ...mainMaterial},
      {account: SUB, ...subMaterial},
    ]);
    typeOffers(rt, emulator, [
      {
        name: 'main_offer',
        account: '(main account)',
        owner: MAIN,
        md5: mainMaterial.creative_md5,
      },
      {
        name: 'sub_offer',
        account: SUB,
        owner: SUB,
        md5: subMaterial.creative_md5,
      },
    ]);
    rt.meter.reset();

    const summary = rt.call('createOffers') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 2, invalid: 0, error: 0});
    expect(signed(emulator).filter(r => !r.startsWith('GET sub_adv'))).toEqual([
      `GET offers ${MAIN}`,
      `GET offers ${SUB}`,
      `POST offer ${MAIN}`,
      `POST offer ${SUB}`,
      `PUT tracking ${MAIN}`,
      `PUT tracking ${SUB}`,
    ]);
    const [main, sub] = recordsOf(rt, 'New Offers');
    expect(emulator.account(MAIN).offers.has(main.offer_id as number)).toBe(
      true,
    );
    expect(emulator.account(SUB).offers.has(sub.offer_id as number)).toBe(true);
    // The two accounts' lookups, creates and trackings each share one fetchAll (six if each
    // account went alone); the one fetch is the sub-account's keys, looked up once.
    const {counts} = rt.meter.snapshot();
    expect({
      fetch: counts['UrlFetchApp.fetch'] ?? 0,
      fetchAll: counts['UrlFetchApp.fetchAll'] ?? 0,
    }).toEqual({fetch: 1, fetchAll: 3});
  });

  it('a file of no account that offers of two accounts need is not guessed at: both INVALID, nothing uploaded', () => {
    const drive = driveFiles({'1SharedFileId': ['shared.png', 'shared']});
    const {rt, emulator} = offerDesk({}, {drive});
    rt.call('setActingAccount', '*');
    withSheets(rt, emulator);
    typeRows(rt, 'Creatives', [
      {file: '1SharedFileId', creative_name: 'shared'},
    ]);
    typeOffers(rt, emulator, [
      {
        name: 'main_offer',
        account: '(main account)',
        owner: MAIN,
        md5: 'shared',
      },
      {name: 'sub_offer', account: SUB, owner: SUB, md5: 'shared'},
    ]);

    rt.call('createOffers');

    expect(signed(emulator).filter(r => !r.startsWith('GET'))).toEqual([]);
    for (const row of recordsOf(rt, 'New Offers')) {
      expect(row).toMatchObject({
        sync_status: 'INVALID',
        sync_message:
          "creatives: the file of Creatives row 2 is to be uploaded for offers of several accounts: write in its account cell which account it is uploaded to (another account's offer needs a row of its own). Nothing was sent.",
      });
    }
  });

  it.each([
    [
      'empty',
      '',
      "account is empty: acting as every account, say which account creates the offer ((main account) or a sub-account's sub_adv_user_name). Nothing was sent.",
    ],
    [
      'one that can name no account',
      '(main acount)',
      'account "(main acount)" names no account: write (main account) or a sub-account\'s sub_adv_user_name. Nothing was sent.',
    ],
  ])(
    'a row whose account cell is %s is INVALID naming the column, and nothing is sent',
    (_, account, message) => {
      const {rt, emulator} = offerDesk();
      rt.call('setActingAccount', '*');
      withSheets(rt, emulator);
      const material = listedMaterial(emulator, MAIN);
      typeRows(rt, 'Creatives', [{account: '(main account)', ...material}]);
      typeOffers(rt, emulator, [
        {name: 'whose_offer', account, owner: MAIN, md5: material.creative_md5},
      ]);

      const summary = rt.call('createOffers') as Record<string, unknown>;

      expect(summary).toMatchObject({ok: 0, invalid: 1});
      expect(emulator.requests).toEqual([]);
      expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
        offer_id: '',
        sync_status: 'INVALID',
        sync_message: message,
      });
    },
  );

  it('a Creatives row to upload with an empty account cell is INVALID, and nothing is uploaded', () => {
    const drive = driveFiles({'1WhoseFileId': ['whose.png', 'whose']});
    const {rt, emulator} = offerDesk({}, {drive});
    rt.call('setActingAccount', '*');
    rt.call('uploadCreatives');
    typeRows(rt, 'Creatives', [{file: '1WhoseFileId'}]);
    emulator.clearRequests();

    rt.call('uploadCreatives');

    expect(emulator.requests).toEqual([]);
    expect(recordsOf(rt, 'Creatives')[0]).toMatchObject({
      creative_md5: '',
      sync_status: 'INVALID',
      sync_message:
        "account is empty: acting as every account, say which account uploads the material ((main account) or a sub-account's sub_adv_user_name). Nothing was uploaded.",
    });
  });
});

describe('a create sent as a sub-account whose answer was lost, run again as the main account', () => {
  it('is looked up with the sub-account keys and adopted: one POST offer in all', () => {
    const {rt, emulator} = offerDesk();
    rt.call('setActingAccount', SUB);
    withSheets(rt, emulator);
    const material = listedMaterial(emulator, SUB);
    typeRows(rt, 'Creatives', [material]);
    typeOffers(rt, emulator, [
      {name: 'lost_offer', account: '', owner: SUB, md5: material.creative_md5},
    ]);
    createKilledBeforeAnswers(rt, emulator);
    expect(recordsOf(rt, 'New Offers')[0].sync_message).toMatch(
      new RegExp(`^Create sent as offer_name lost_offer in account ${SUB} at `),
    );
    rt.call('setActingAccount', '');
    const since = emulator.requests.at(-1)!.seq;

    rt.call('createOffers');

    expect(
      signedRequests(emulator, since)
        .filter(r => r.op !== 'GET sub_adv_account')
        .map(r => `${r.op} ${r.signer}`),
    ).toEqual([`GET offers ${SUB}`, `PUT tracking ${SUB}`]);
    const all = signedRequests(emulator).filter(r => r.op === 'POST offer');
    expect(all.map(r => r.signer)).toEqual([SUB]);
    const [offer] = offersNamed(emulator, SUB, 'lost_offer');
    expect(offersNamed(emulator, MAIN, 'lost_offer')).toEqual([]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: offer.offer_id,
      sync_status: 'OK',
      sync_message: `Offer ${offer.offer_id} created (the answer to its create was lost; found by name); tracking set.`,
    });
  });
});

describe.each([
  ['that sub-account', SUB, '', undefined],
  ['every account', '*', SUB, undefined],
  [
    'that sub-account, the lost create sent by the release before',
    SUB,
    '',
    RELEASE_3,
  ],
])(
  'a sub-account create whose answer was lost and whose offer the list did not show, acting as %s',
  (_, acting, cell, first) => {
    it('is adopted on the next run: one POST offer in all, the row OK with its offer_id', () => {
      const {rt, emulator} = offerDesk({}, first ? {distDir: first} : {});
      rt.call('setActingAccount', acting);
      withSheets(rt, emulator);
      const material = listedMaterial(emulator, SUB);
      typeRows(rt, 'Creatives', [{...material, account: SUB}]);
      typeOffers(rt, emulator, [
        {
          name: 'lost_sub',
          account: cell,
          owner: SUB,
          md5: material.creative_md5,
        },
      ]);
      // The create is applied and its answer lost; the lookups of its name list no names.
      emulator.faults.configure({
        rules: [
          {kind: 'drop', method: 'POST', path: '/api/open/v3/offer', count: 1},
          {
            kind: 'strip',
            method: 'GET',
            path: '/api/open/v3/offers',
            fields: ['offer_name'],
            count: 2,
          },
        ],
      });
      rt.call('createOffers');
      expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
        offer_id: '',
        sync_status: 'ERROR',
        sync_message: expect.stringMatching(
          new RegExp(
            `^Create sent as offer_name lost_sub in account ${SUB}, but its outcome is unknown \\(.*\\), and no offer named lost_sub is listed: `,
          ),
        ),
      });
      emulator.faults.clear();
      if (first) upgradeToThisRelease(rt);

      rt.call('createOffers');

      const all = signedRequests(emulator).filter(r => r.op === 'POST offer');
      expect(all.map(r => r.signer)).toEqual([SUB]);
      const [offer] = offersNamed(emulator, SUB, 'lost_sub');
      expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
        offer_id: offer.offer_id,
        sync_status: 'OK',
        sync_message: `Offer ${offer.offer_id} created (the answer to its create was lost; found by name); tracking set.`,
      });
    });
  },
);

describe('a create or an upload names each account it made records in (issue 33)', () => {
  it("acting as the main account: the upload and the create count the sub-account's records, the summary and the sidebar lines name it", () => {
    const drive = driveFiles({'1SubHeroFileId': ['hero.png', 'sub hero']});
    const {rt, emulator} = offerDesk({}, {drive});
    withSheets(rt, emulator);
    const mainMaterial = listedMaterial(emulator, MAIN);
    typeRows(rt, 'Creatives', [
      {account: SUB, file: '1SubHeroFileId', creative_name: 'sub_hero'},
      mainMaterial,
    ]);
    const upload = rt.call('uploadCreatives') as {message: string};
    expect(upload.message).toMatch(
      new RegExp(`\\(sub-account ${SUB}: 1 record\\)\\.$`),
    );
    typeOffers(rt, emulator, [
      {name: 'sub_offer', account: SUB, owner: SUB, md5: 'sub_hero'},
      {
        name: 'main_offer',
        account: '',
        owner: MAIN,
        md5: mainMaterial.creative_md5,
      },
    ]);

    const created = rt.call('createOffers') as {
      ok: number;
      message: string;
      accounts: Array<{account: string; records: number}>;
    };

    expect(created.ok).toBe(2);
    expect(created.message).toContain(
      `new offer rows (sub-account ${SUB}: 1 record, main account: 1 record).`,
    );
    expect(created.accounts).toEqual([
      {account: `sub-account ${SUB}`, records: 1},
      {account: 'main account', records: 1},
    ]);
  });
});
