/**
 * The sidebar host answers google.script.run calls from a page, and serves the calls Apps Script
 * would run side by side (getProgress) while a slow job is still running.
 */
import {join} from 'node:path';
import {runInNewContext} from 'node:vm';
import {
  googleScriptRunShim,
  SidebarHost,
  startSidebarHost,
  withShim,
} from '../../local/sidebar-host';
import {Started} from '../support/started';

describe('the sidebar host', () => {
  const started = new Started();
  let host: SidebarHost;

  beforeAll(async () => {
    host = await started.keep(
      startSidebarHost({
        worldModule: join(__dirname, 'ui-sidebar-host-world.ts'),
        fetchDelayMs: 40,
      }),
      h => h.close(),
    );
  }, 30000);

  afterAll(() => started.stopAll());

  it('answers getProgress while a job runs, each call in its own execution', async () => {
    const job = host.call('slowJob', [8]);
    const seen: unknown[] = [];
    let finished = false;
    void job.then(() => (finished = true));
    while (!finished) {
      const answer = await host.call('getProgress', []);
      if (answer.ok && !finished) seen.push(answer.value);
      await new Promise(resolve => setTimeout(resolve, 30));
    }
    await expect(job).resolves.toEqual({ok: true, value: 'done 8'});
    const steps = seen.filter(v => v !== null).map(Number);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.some(n => n > 0 && n < 8)).toBe(true);
    const names = await host.invoke<string[]>('executions');
    expect(names).toContain('slowJob');
    expect(
      names.filter(n => n === 'getProgress').length,
    ).toBeGreaterThanOrEqual(seen.length);
  });

  it('passes a server error on with its name, as Apps Script reports it', async () => {
    await expect(host.call('fails', [])).resolves.toEqual({
      ok: false,
      error: {
        name: 'ConfigError',
        message: 'Settings not saved: baseUrl is required.',
      },
    });
  });
});

describe('the page-side google.script.run stand-in', () => {
  it('calls the host by name and hands results and errors to the handlers', async () => {
    const answers: Record<string, unknown> = {
      getSettings: {ok: true, value: {baseUrl: 'https://x.test'}},
      saveSettings: {
        ok: false,
        error: {name: 'ConfigError', message: 'Settings not saved.'},
      },
    };
    const sent: unknown[] = [];
    const window: Record<string, unknown> = {
      __sidebarHostCall: async (body: string) => {
        const call = JSON.parse(body) as {name: string; args: unknown[]};
        sent.push(call);
        return JSON.stringify(answers[call.name]);
      },
    };
    runInNewContext(googleScriptRunShim(), {
      window,
      Proxy,
      JSON,
      Error,
      console,
    });
    type Run = {
      [name: string]: (...args: unknown[]) => Run;
    };
    const run = (window.google as {script: {run: Run}}).script.run;
    const outcome = await new Promise(resolve => {
      run
        .withSuccessHandler((value: unknown, user: unknown) =>
          resolve({value, user}),
        )
        .withUserObject('u1')
        .getSettings();
    });
    expect(outcome).toEqual({value: {baseUrl: 'https://x.test'}, user: 'u1'});
    const failure = await new Promise<Error>(resolve => {
      run.withFailureHandler(resolve).saveSettings({baseUrl: ''});
    });
    expect(failure.message).toBe('ConfigError: Settings not saved.');
    expect(sent).toEqual([
      {name: 'getSettings', args: []},
      {name: 'saveSettings', args: [{baseUrl: ''}]},
    ]);
  });

  it('goes first in the head, before the sidebar’s own script', () => {
    const page = withShim(
      '<html><head><title>x</title></head><body><script>main()</script></body></html>',
      'window.shim = 1; // </script> inside',
    );
    expect(page).toBe(
      '<html><head>\n<script>\nwindow.shim = 1; // <\\/script> inside\n</script><title>x</title></head><body><script>main()</script></body></html>',
    );
  });
});
