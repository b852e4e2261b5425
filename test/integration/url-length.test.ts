/**
 * Issue 20, "URL length": Apps Script refuses a URL longer than 2 KB. 200 uploads answered
 * `already existed` without a name make the md5 lookup of one run name 200 md5s (7 KB as one
 * query): the built add-on splits it into requests that each fit, and every row gets its name.
 */
import type {WireFetch} from '../../local/http-types';
import {driveFiles, uploadDirectly} from '../support/materials';
import {offerDesk, recordsOf, typeRows} from '../support/offer-desk';

const UPLOAD = '/api/open/v3/creatives/upload';
const SOURCE = '/api/open/v3/creatives/source';
const MATERIALS = 200;

describe('a 200-material lookup within the 2 KB URL limit', () => {
  it('looks the 200 md5s up in requests of at most 2,048 characters and names every row', () => {
    const files = Object.fromEntries(
      Array.from({length: MATERIALS}, (_, i): [string, [string, string]] => [
        `1File${i}`,
        [`m${i}.png`, `material ${i}`],
      ]),
    );
    const urls: string[] = [];
    // The emulator exists once the desk does; the runtime's wire reaches it through this.
    const to: {emulator?: WireFetch} = {};
    const {rt, emulator} = offerDesk(
      {offers: 5, duplicateUploadShape: 'md5Only'},
      {
        drive: driveFiles(files),
        fetch: request => {
          urls.push(request.url);
          return to.emulator!(request);
        },
      },
    );
    to.emulator = emulator.handle;
    const names = new Map<string, string>();
    for (let i = 0; i < MATERIALS; i++) {
      const md5 = uploadDirectly(emulator, `m${i}.png`, `material ${i}`);
      emulator.account('demo_adv').materials.get(md5)!.creative_name =
        `material ${i}, on the server`;
      names.set(md5, `material ${i}, on the server`);
    }
    rt.call('uploadCreatives');
    typeRows(
      rt,
      'Creatives',
      Array.from({length: MATERIALS}, (_, i) => ({file: `1File${i}`})),
    );
    emulator.clearRequests();
    urls.length = 0;

    rt.call('uploadCreatives');

    const lookups = emulator.requests.filter(r => r.path === SOURCE);
    expect(
      emulator.requests.filter(r => r.path === UPLOAD && r.method === 'POST'),
    ).toHaveLength(MATERIALS);
    expect(lookups.length).toBeGreaterThan(1);
    const asked = lookups.flatMap(r => String(r.query.creative_md5).split(','));
    expect(asked.sort()).toEqual([...names.keys()].sort());
    expect(urls.length).toBe(emulator.requests.length);
    expect(Math.max(...urls.map(url => url.length))).toBeLessThanOrEqual(2048);
    expect(
      recordsOf(rt, 'Creatives').map(r => [
        r.creative_md5,
        r.creative_name,
        r.sync_status,
      ]),
    ).toEqual([...names].map(([md5, name]) => [md5, name, 'OK']));
  });
});
