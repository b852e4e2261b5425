import {createHash} from 'node:crypto';
import {createRuntime} from '../../local/runtime';

const signed = (buf: Buffer) => Array.from(buf, b => (b > 127 ? b - 256 : b));
const hex = (bytes: number[]) =>
  bytes.map(b => (b & 0xff).toString(16).padStart(2, '0')).join('');

describe('Utilities', () => {
  const rt = createRuntime({distDir: null});
  const U = rt.globals.Utilities;

  it('computeDigest returns signed bytes (-128..127) like Java', () => {
    const md5 = U.computeDigest(U.DigestAlgorithm.MD5, 'abc', U.Charset.UTF_8);
    expect(md5).toEqual(signed(createHash('md5').update('abc').digest()));
    expect(md5.some(b => b < 0)).toBe(true);
    expect(hex(md5)).toBe('900150983cd24fb0d6963f7d28e17f72');
    const sha = U.computeDigest(
      U.DigestAlgorithm.SHA_256,
      'héllo',
      U.Charset.UTF_8,
    );
    expect(sha).toEqual(
      signed(createHash('sha256').update('héllo', 'utf8').digest()),
    );
    // US_ASCII encodes what it cannot hold as '?', as Java does.
    expect(
      U.computeDigest(U.DigestAlgorithm.MD5, 'é', U.Charset.US_ASCII),
    ).toEqual(signed(createHash('md5').update('?').digest()));
    expect(() => U.computeDigest('MD5' as never, 'abc')).toThrow(
      'Invalid argument: algorithm',
    );
  });

  it('matches the API vendor token test vector', () => {
    const md5 = (s: string) =>
      hex(U.computeDigest(U.DigestAlgorithm.MD5, s, U.Charset.UTF_8));
    expect(md5('ce4f7c2b8edb173e2533d7a169080504' + md5('1471256697'))).toBe(
      '378d387c2b61462cf4bc62b3949111f3',
    );
  });

  it('encodes and decodes base64 with signed bytes', () => {
    expect(U.base64Encode('hé')).toBe(Buffer.from('hé').toString('base64'));
    expect(U.base64Encode([-1, 0, 1])).toBe('/wAB');
    expect(U.base64Decode('/wAB')).toEqual([-1, 0, 1]);
    expect(U.base64EncodeWebSafe([-5, -1])).toBe('-_8=');
    expect(() => U.base64Decode('not base64!')).toThrow(
      'Could not decode string.',
    );
  });

  it('makes blobs holding bytes, names and content types', () => {
    const blob = U.newBlob('héllo', 'text/plain', 'a.txt');
    expect(blob.getBytes()).toEqual(signed(Buffer.from('héllo')));
    expect(blob.getDataAsString()).toBe('héllo');
    expect([blob.getName(), blob.getContentType()]).toEqual([
      'a.txt',
      'text/plain',
    ]);
    const copy = blob.copyBlob().setName('b.txt');
    expect([blob.getName(), copy.getName()]).toEqual(['a.txt', 'b.txt']);
    expect(U.newBlob([-1, 65]).getBytes()).toEqual([-1, 65]);
  });

  it('formats dates in a time zone with SimpleDateFormat patterns', () => {
    const d = rt.realm.date(Date.UTC(2026, 0, 2, 23, 30, 5));
    expect(U.formatDate(d, 'UTC', "yyyy-MM-dd'T'HH:mm:ss")).toBe(
      '2026-01-02T23:30:05',
    );
    expect(U.formatDate(d, 'Asia/Shanghai', 'yyyy-MM-dd HH:mm:ss Z')).toBe(
      '2026-01-03 07:30:05 +0800',
    );
    expect(U.formatDate(d, 'America/New_York', 'yyyy-MM-dd hh:mm a XXX')).toBe(
      '2026-01-02 06:30 PM -05:00',
    );
    expect(U.formatDate(d, 'Nowhere/Zone', 'HH:mm')).toBe('23:30');
    expect(() => U.formatDate(d, 'UTC', 'yyyy-qq')).toThrow(
      "Illegal pattern character 'q'",
    );
  });

  it('sleeps on the virtual clock only', () => {
    const before = rt.clock.now();
    const real = Date.now();
    U.sleep(120000);
    expect(rt.clock.now() - before).toBeGreaterThanOrEqual(120000);
    expect(Date.now() - real).toBeLessThan(1000);
    expect(() => U.sleep(300001)).toThrow('Invalid argument: milliseconds');
  });

  it('hands out distinct uuids', () => {
    expect(U.getUuid()).toMatch(/^[0-9a-f-]{36}$/);
    expect(U.getUuid()).not.toBe(U.getUuid());
  });
});
