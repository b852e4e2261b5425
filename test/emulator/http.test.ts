/** The emulator as a child process over real loopback HTTP, with its control API. */
import {
  DEMO_ACCOUNTS,
  EmulatorStartError,
  signHeaders,
  startEmulatorProcess,
  type EmulatorProcess,
} from '../../local/emulator';
import {multipart, png} from './helpers';

const {main} = DEMO_ACCOUNTS;

describe('emulator over HTTP (child process)', () => {
  let server: EmulatorProcess;

  beforeAll(async () => {
    server = await startEmulatorProcess({seed: 3, offers: 120});
  });

  afterAll(async () => {
    await server.stop();
  });

  const signed = () =>
    signHeaders(main.accessKey, main.apiKey, Math.floor(Date.now() / 1000));

  it('serves signed API requests and logs them for the control API', async () => {
    const response = await fetch(
      `${server.baseUrl}/api/open/v3/offers?limit=50`,
      {
        headers: signed(),
      },
    );
    expect(response.status).toBe(200);
    const json = await response.json();
    expect(json.data).toMatchObject({page: 1, limit: 50, total: 120});
    const [entry] = (await server.requests()).slice(-1);
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/api/open/v3/offers',
      query: {limit: '50'},
      account: main.name,
      code: 200,
    });
  });

  it('uploads multipart files', async () => {
    const {body, contentType} = multipart([
      {
        name: 'file',
        filename: 'over_http.png',
        contentType: 'image/png',
        data: png(5, 5),
      },
    ]);
    const response = await fetch(
      `${server.baseUrl}/api/open/v3/creatives/upload`,
      {
        method: 'POST',
        headers: {...signed(), 'content-type': contentType},
        body,
      },
    );
    expect((await response.json()).data.creative_name).toBe('over_http');
  });

  it('applies faults set through the control API: 503 and a dropped socket', async () => {
    await server.addFault({kind: 'error', status: 500, count: 1});
    const url = `${server.baseUrl}/api/open/v3/campaign`;
    expect((await fetch(url, {headers: signed()})).status).toBe(500);
    expect((await fetch(url, {headers: signed()})).status).toBe(200);
    await server.addFault({kind: 'drop', count: 1});
    await expect(fetch(url, {headers: signed()})).rejects.toThrow();
    expect((await server.faults()).rules).toHaveLength(2);
    await server.clearFaults();
    expect((await server.faults()).rules).toEqual([]);
  });

  it('reports a server that cannot start', async () => {
    await expect(startEmulatorProcess({port: server.port})).rejects.toThrow(
      /emulator exited with 2/,
    );
  });

  it('shows and changes records, and resets', async () => {
    const state = (await server.state()) as {
      accounts: {name: string; offers: number}[];
    };
    expect(state.accounts.find(a => a.name === main.name)!.offers).toBe(120);
    const offerId = 200001;
    await server.updateOffer(offerId, {status: 'OVER_CAP'});
    expect(await server.offer(offerId)).toMatchObject({
      account: main.name,
      offer_id: offerId,
      status: 'OVER_CAP',
    });
    expect(await server.offer(1)).toBeUndefined();
    await server.reset({offers: 2});
    expect(await server.requests()).toEqual([]);
    expect(await server.offer(offerId)).toMatchObject({
      status: expect.any(String),
    });
  });
});

describe('an emulator process that does not start in time', () => {
  it('fails with its output so far, its process ended', async () => {
    const failed = await startEmulatorProcess({startTimeoutMs: 1}).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(EmulatorStartError);
    expect((failed as Error).message).toContain(
      'emulator did not start in time',
    );
    // Signal 0 only asks whether the process is there.
    expect(() => process.kill((failed as EmulatorStartError).pid!, 0)).toThrow(
      expect.objectContaining({code: 'ESRCH'}),
    );
  });
});
