import {createRuntime} from '../../local/runtime';
import {WireOutcome, WireRequest} from '../../local/http-types';

/** An in-process server: answers by path, records what crossed the wire. */
function server() {
  const seen: WireRequest[] = [];
  const text = (
    status: number,
    body: string,
    latencyMs = 0,
    headers: Record<string, string> = {},
  ): WireOutcome => ({
    kind: 'response',
    status,
    headers: {'content-type': 'application/json; charset=utf-8', ...headers},
    body: new Uint8Array(Buffer.from(body)),
    latencyMs,
  });
  const wire = (req: WireRequest): WireOutcome => {
    seen.push(req);
    const path = new URL(req.url).pathname;
    if (path === '/drop')
      return {kind: 'dropped', applied: true, latencyMs: 100};
    if (path === '/fail')
      return text(500, `{"code":500,"msg":"${'x'.repeat(200)}"}`);
    if (path === '/slow') return text(200, '"slow"', 900);
    if (path === '/moved') return text(302, '', 0, {location: '/ok'});
    return text(200, JSON.stringify({path, method: req.method}));
  };
  return {seen, wire};
}

function setup() {
  const s = server();
  const rt = createRuntime({distDir: null, fetch: s.wire});
  return {rt, seen: s.seen, U: rt.globals.UrlFetchApp};
}

describe('UrlFetchApp', () => {
  it('throws on HTTP errors unless muteHttpExceptions, quoting the start of the body', () => {
    const {U} = setup();
    expect(() => U.fetch('https://api.example.com/fail?sign=s3cret')).toThrow(
      /^Request failed for https:\/\/api\.example\.com returned code 500\. Truncated server response: \{"code":500,"msg":"x{131}\.\.\. \(use muteHttpExceptions option to examine full response\)$/,
    );
    const r = U.fetch('https://api.example.com/fail', {
      muteHttpExceptions: true,
    });
    expect(r.getResponseCode()).toBe(500);
    expect(JSON.parse(r.getContentText()).code).toBe(500);
    expect(r.getHeaders()['content-type']).toMatch(/^application\/json/);
  });

  it('throws when the connection drops', () => {
    const {U} = setup();
    expect(() =>
      U.fetch('https://api.example.com/drop', {muteHttpExceptions: true}),
    ).toThrow('Address unavailable: https://api.example.com/drop');
  });

  it('sends lowercase headers, form-encodes object payloads and refuses a GET payload', () => {
    const {U, seen} = setup();
    U.fetch('https://api.example.com/x', {
      method: 'post',
      headers: {'X-Token': 't'},
      payload: {a: 'b c', d: 1},
    });
    const req = seen[0];
    expect(req.method).toBe('POST');
    expect(req.headers['x-token']).toBe('t');
    expect(req.headers['content-type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(Buffer.from(req.body).toString()).toBe('a=b+c&d=1');
    U.fetch('https://api.example.com/x', {
      method: 'put',
      contentType: 'application/json',
      payload: '{"a":1}',
    });
    expect(seen[1].headers['content-type']).toBe('application/json');
    expect(() =>
      U.fetch('https://api.example.com/x', {payload: 'a=1'}),
    ).toThrow('Invalid argument: payload');
  });

  it('sends a payload holding a Blob as multipart/form-data', () => {
    const {rt, U, seen} = setup();
    const blob = rt.globals.Utilities.newBlob(
      [-119, 80, 78, 71],
      'image/png',
      'logo.png',
    );
    U.fetch('https://up.example.com/upload', {
      method: 'post',
      payload: {file: blob, note: 'hi'},
    });
    const req = seen[0];
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(
      req.headers['content-type'],
    )![1];
    const body = Buffer.from(req.body).toString('latin1');
    const parts = body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map(p => p.slice(2, -2));
    expect(body.endsWith(`--${boundary}--\r\n`)).toBe(true);
    const [fileHead, fileData] = parts[0].split('\r\n\r\n');
    expect(fileHead).toBe(
      'Content-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png',
    );
    expect(Buffer.from(fileData, 'latin1')).toEqual(
      Buffer.from([0x89, 80, 78, 71]),
    );
    expect(parts[1]).toBe(
      'Content-Disposition: form-data; name="note"\r\n\r\nhi',
    );
  });

  it('fetchAll answers in order and costs its slowest request', () => {
    const {rt, U} = setup();
    const start = rt.clock.preciseNow();
    const rs = U.fetchAll([
      'https://a.example.com/one',
      {url: 'https://a.example.com/slow'},
      'https://a.example.com/two',
    ]);
    expect(rs.map(r => r.getContentText())).toEqual([
      '{"path":"/one","method":"GET"}',
      '"slow"',
      '{"path":"/two","method":"GET"}',
    ]);
    expect(rt.clock.preciseNow() - start).toBe(
      900 + 3 * rt.latency.urlFetchPerRequestMs,
    );
    const counts = rt.snapshot().counts;
    expect([
      counts['UrlFetchApp.fetchAll'],
      counts['UrlFetchApp.requests'],
    ]).toEqual([1, 3]);
  });

  it('fetchAll fails as a whole when a connection drops or an unmuted request errs', () => {
    const {U} = setup();
    expect(() =>
      U.fetchAll([
        'https://a.example.com/ok',
        {url: 'https://a.example.com/drop', muteHttpExceptions: true},
      ]),
    ).toThrow('Address unavailable: https://a.example.com/drop');
    expect(() =>
      U.fetchAll(['https://a.example.com/ok', 'https://a.example.com/fail']),
    ).toThrow('returned code 500');
    const rs = U.fetchAll([
      {url: 'https://a.example.com/fail', muteHttpExceptions: true},
    ]);
    expect(rs[0].getResponseCode()).toBe(500);
  });

  it('prices a single fetch as a round trip at least', () => {
    const {rt, U} = setup();
    const start = rt.clock.preciseNow();
    U.fetch('https://a.example.com/ok');
    expect(rt.clock.preciseNow() - start).toBe(
      rt.latency.httpRoundTripMs + rt.latency.urlFetchPerRequestMs,
    );
  });

  it('follows redirects unless told not to', () => {
    const {U, seen} = setup();
    expect(U.fetch('https://a.example.com/moved').getContentText()).toBe(
      '{"path":"/ok","method":"GET"}',
    );
    expect(seen.map(r => r.url)).toEqual([
      'https://a.example.com/moved',
      'https://a.example.com/ok',
    ]);
    expect(
      U.fetch('https://a.example.com/moved', {
        followRedirects: false,
      }).getResponseCode(),
    ).toBe(302);
  });

  it('getRequest shows the request without sending it', () => {
    const {U, seen} = setup();
    const req = U.getRequest('https://a.example.com/x?q=a b', {
      method: 'post',
      payload: {k: 'v'},
      headers: {Authorization: 'z'},
    });
    expect(req).toEqual({
      url: 'https://a.example.com/x?q=a%20b',
      method: 'post',
      headers: {Authorization: 'z'},
      payload: 'k=v',
      contentType: 'application/x-www-form-urlencoded',
      followRedirects: true,
      validateHttpsCertificates: true,
      useIntranet: false,
    });
    expect(seen).toHaveLength(0);
  });

  it('takes a URL of 2,048 characters and refuses a fetchAll holding one of 2,049, sending nothing', () => {
    const s = server();
    const rt = createRuntime({distDir: null, fetch: s.wire});
    const U = rt.globals.UrlFetchApp;
    const base = 'https://a.example.com/?q=';
    const url = (length: number) => base + 'x'.repeat(length - base.length);
    expect(U.fetch(url(2048)).getResponseCode()).toBe(200);
    expect(() => U.fetchAll([url(100), url(2049)])).toThrow(
      'Limit Exceeded: URLFetch URL Length.',
    );
    expect(rt.snapshot().counts['UrlFetchApp.requests']).toBe(1);
  });

  it('refuses URLs over 2 KB and counts the daily quota', () => {
    const s = server();
    const rt = createRuntime({
      distDir: null,
      fetch: s.wire,
      urlFetchDailyQuota: 2,
    });
    const U = rt.globals.UrlFetchApp;
    expect(() =>
      U.fetch(`https://a.example.com/?q=${'x'.repeat(2100)}`),
    ).toThrow('Limit Exceeded: URLFetch URL Length.');
    U.fetch('https://a.example.com/1');
    U.fetch('https://a.example.com/2');
    expect(() => U.fetch('https://a.example.com/3')).toThrow(
      'Service invoked too many times for one day: urlfetch.',
    );
    rt.clock.advance(86400000);
    expect(U.fetch('https://a.example.com/4').getResponseCode()).toBe(200);
  });
});
