import {ChildProcess, spawn} from 'node:child_process';
import {
  createRuntime,
  loopbackWireFetch,
  LoopbackWireFetch,
} from '../../local/runtime';

/** Runs in a child process: a server in this thread could never answer while Atomics.wait blocks it. */
const SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', c => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/drop') return req.socket.destroy();
    const status = req.url.startsWith('/status/') ? Number(req.url.slice(8)) : 200;
    res.writeHead(status, {'Content-Type': 'application/json', 'X-Server': 'child'});
    res.end(JSON.stringify({method: req.method, url: req.url, headers: req.headers,
      body: Buffer.concat(chunks).toString()}));
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;

describe('loopback HTTP transport', () => {
  let child: ChildProcess;
  let base: string;
  let wire: LoopbackWireFetch;

  beforeAll(async () => {
    child = spawn(process.execPath, ['-e', SERVER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        const m = /listening (\d+)/.exec(d.toString());
        if (m) resolve(m[1]);
      });
      child.on('exit', code => reject(new Error(`server exited ${code}`)));
    });
    base = `http://127.0.0.1:${port}`;
    wire = loopbackWireFetch({timeoutMs: 5000});
  });

  afterAll(async () => {
    await wire.close();
    // Killed is not gone: until it has exited, the child and its pipe keep this worker alive.
    const exited = new Promise(resolve => child.once('exit', resolve));
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await exited;
    }
  });

  it('carries requests and answers synchronously for UrlFetchApp', () => {
    const rt = createRuntime({distDir: null, fetch: wire});
    const r = rt.globals.UrlFetchApp.fetch(`${base}/echo?x=1`, {
      method: 'post',
      contentType: 'application/json',
      payload: '{"a":1}',
      headers: {'X-Key': 'k'},
    });
    expect(r.getResponseCode()).toBe(200);
    expect(r.getHeaders()['x-server']).toBe('child');
    const echoed = JSON.parse(r.getContentText());
    expect(echoed).toMatchObject({
      method: 'POST',
      url: '/echo?x=1',
      body: '{"a":1}',
    });
    expect(echoed.headers).toMatchObject({
      'x-key': 'k',
      'content-type': 'application/json',
      'content-length': '7',
    });
  });

  it('keeps fetchAll order and HTTP error handling', () => {
    const rt = createRuntime({distDir: null, fetch: wire});
    const U = rt.globals.UrlFetchApp;
    const rs = U.fetchAll([
      `${base}/a`,
      {url: `${base}/status/503`, muteHttpExceptions: true},
      `${base}/c`,
    ]);
    expect(rs.map(r => r.getResponseCode())).toEqual([200, 503, 200]);
    expect(rs.map(r => JSON.parse(r.getContentText()).url)).toEqual([
      '/a',
      '/status/503',
      '/c',
    ]);
    expect(() => U.fetch(`${base}/status/404`)).toThrow(
      /^Request failed for http:\/\/127\.0\.0\.1:\d+ returned code 404/,
    );
  });

  it('reports a dropped connection as UrlFetchApp does', () => {
    const rt = createRuntime({distDir: null, fetch: wire});
    expect(() => rt.globals.UrlFetchApp.fetch(`${base}/drop`)).toThrow(
      `Address unavailable: ${base}/drop`,
    );
  });

  it('reaches only http:// on loopback addresses', () => {
    const rt = createRuntime({distDir: null, fetch: wire});
    expect(() =>
      rt.globals.UrlFetchApp.fetch('https://api.example.com/x'),
    ).toThrow('only reaches http:// on loopback');
    expect(() =>
      wire({
        method: 'GET',
        url: 'http://10.0.0.1/',
        headers: {},
        body: new Uint8Array(),
      }),
    ).toThrow('refused http://10.0.0.1/');
  });
});
