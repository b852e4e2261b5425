import {Started} from '../../support/started';

/** A start that ends when the test says so. */
function pending<T>() {
  let settle!: {resolve: (value: T) => void; reject: (e: Error) => void};
  const promise = new Promise<T>((resolve, reject) => {
    settle = {resolve, reject};
  });
  return {promise, ...settle};
}

describe('what a suite started', () => {
  it('is stopped once started, though the beforeAll gave up waiting for it', async () => {
    const started = new Started();
    const stopped: string[] = [];
    const chromium = pending<string>();
    void started.keep(chromium.promise, async c => {
      stopped.push(c);
    });
    // The beforeAll ran out of time: its afterAll stops all while Chromium still starts.
    const stopping = started.stopAll();
    chromium.resolve('chromium');
    await stopping;
    expect(stopped).toEqual(['chromium']);
  });

  it('is stopped last kept first, and what failed to start is not stopped', async () => {
    const started = new Started();
    const stopped: string[] = [];
    const stop = async (what: string) => {
      stopped.push(what);
    };
    const host = pending<string>();
    const browser = pending<string>();
    const both = Promise.all([
      started.keep(host.promise, stop),
      started.keep(browser.promise, stop),
      started.keep(Promise.reject(new Error('no playground')), stop),
    ]);
    browser.resolve('browser');
    host.resolve('host');
    await expect(both).rejects.toThrow('no playground');
    await started.stopAll();
    expect(stopped).toEqual(['browser', 'host']);
  });
});
