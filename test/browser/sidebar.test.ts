/**
 * The built sidebar (dist/Sidebar.html) in headless Chromium, its google.script.run served by
 * the sidebar host: the built add-on in the local Apps Script runtime against the in-process
 * emulator. Walks what a user does, saving a screenshot of each state under
 * test-artifacts/sidebar/.
 */
import {mkdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import type {Browser, Page} from 'playwright-core';
import {launchChromium} from '../../local/playground/chromium';
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {
  BINDING,
  googleScriptRunShim,
  SidebarHost,
  startSidebarHost,
  withShim,
} from '../../local/sidebar-host';
import {IDLE_POLL_MS} from '../../src/ui/client/poll-plan';
import {BROWSER_WAIT_MS} from '../support/browser-timeouts';
import {describeInChromium} from '../support/chromium-suite';
import {Started} from '../support/started';

const ARTIFACTS = join(__dirname, '../../test-artifacts/sidebar');
const MAIN = DEMO_ACCOUNTS.main;
const BASE_URL = 'https://api.emulator.test';
/** A change made outside the sidebar shows at its next poll: every 15 s while no job runs. */
const POLL_WAIT_MS = IDLE_POLL_MS + 5000;

/**
 * Waits until `ready` says so, checking every 100 ms: a busy machine makes it take longer,
 * never fail, up to a minute (a test's own limit is the browser project's).
 */
async function until(
  ready: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > end) throw new Error(`not ready after ${timeoutMs} ms`);
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}

describeInChromium('The sidebar', 'the sidebar in Chromium', () => {
  const started = new Started();
  let browser: Browser;
  let host: SidebarHost;
  let page: Page;
  const shot = (name: string) =>
    page.screenshot({path: join(ARTIFACTS, `${name}.png`), fullPage: true});

  const world = <T>(name: string, ...args: unknown[]) =>
    host.invoke<T>(name, ...args);

  const open = async () => {
    const {html} = await host.openSidebar();
    await page.setContent(withShim(html, googleScriptRunShim()));
  };

  const button = (name: string) =>
    page.getByRole('button', {name, exact: true});

  /** The server functions `page` called, in the order their answers went back to it. */
  const answered: string[] = [];
  const answers = (name: string) => answered.filter(n => n === name).length;

  beforeAll(async () => {
    rmSync(ARTIFACTS, {recursive: true, force: true});
    mkdirSync(ARTIFACTS, {recursive: true});
    host = await started.keep(
      startSidebarHost({
        worldModule: join(__dirname, 'world.ts'),
        worldOptions: {emulator: {offers: 600, campaigns: 12, materials: 8}},
      }),
      h => h.close(),
    );
    browser = await started.keep(launchChromium(), b => b.close());
    page = await browser.newPage({viewport: {width: 300, height: 900}});
    page.setDefaultTimeout(BROWSER_WAIT_MS);
    await page.exposeFunction(BINDING, async (body: string) => {
      const {name, args} = JSON.parse(body) as {name: string; args: unknown[]};
      const answer = JSON.stringify(await host.call(name, args));
      answered.push(name);
      return answer;
    });
    await open();
  });

  afterAll(() => started.stopAll());

  it('asks for the connection first, and fits 300 px', async () => {
    // The message is written once the sidebar's first call answers: waited for, not assumed.
    const message = page.locator('#settings-message');
    await message.filter({hasText: /\S/}).waitFor();
    await expect(message.textContent()).resolves.toBe(
      'Enter the base URL, access key and api key of your main account, then Save.',
    );
    const width = await page.evaluate(
      () => document.documentElement.scrollWidth,
    );
    expect(width).toBeLessThanOrEqual(300);
    await shot('01-first-open');
  });

  it('checks each field as it is typed and saves nothing invalid', async () => {
    await page.getByLabel('Base URL').fill('http://api.example.com');
    await page.getByLabel('Access key').fill('has space');
    await button('Save').click();
    await expect(page.locator('#baseUrl-error').textContent()).resolves.toBe(
      'Base URL must start with https:// (plain http is refused: keys would travel unencrypted).',
    );
    await expect(page.locator('#accessKey-error').textContent()).resolves.toBe(
      'Access key must not contain spaces.',
    );
    await expect(page.locator('#apiKey-error').textContent()).resolves.toBe(
      'Api key is required.',
    );
    await expect(
      page.getByLabel('Base URL').getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await expect(page.locator('#settings-message').textContent()).resolves.toBe(
      'Not saved: correct the marked fields.',
    );
    await expect(world('requests')).resolves.toEqual([]);
    await shot('02-field-errors');
  });

  it('saves the settings and never shows the api key again', async () => {
    await page.getByLabel('Base URL').fill(BASE_URL);
    await page.getByLabel('Access key').fill(MAIN.accessKey);
    await page.getByLabel('Api key').fill(MAIN.apiKey);
    await button('Save').click();
    await page.locator('#settings-message', {hasText: 'Saved.'}).waitFor();
    await expect(page.locator('#apiKey-state').textContent()).resolves.toBe(
      'Saved. Leave it empty to keep it; type a new one to replace it.',
    );
    await expect(page.getByLabel('Api key').inputValue()).resolves.toBe('');
    await expect(
      page.locator('.field-error:not(:empty)').count(),
    ).resolves.toBe(0);
    expect(await page.content()).not.toContain(MAIN.apiKey);
    await shot('03-settings-saved');
  });

  it('tests the connection: keys, clock and URL work', async () => {
    await button('Test connection').click();
    const message = page.locator('#settings-message[data-tone="ok"]');
    await message.waitFor();
    await expect(message.textContent()).resolves.toBe(
      'Connected as the main account: URL, keys and clock all work (12 campaigns visible).',
    );
    await shot('04-connection-ok');
  });

  it('tests the connection with a wrong api key and says the keys are refused', async () => {
    await page.getByLabel('Api key').fill('fake-wrong-api-key-00000000000');
    await button('Test connection').click();
    const message = page.locator('#settings-message[data-tone="error"]');
    await message.waitFor();
    await expect(message.textContent()).resolves.toMatch(
      /^The API refused the keys \(GET campaign: code \d+ invalid token.*\): check the access key and the api key\.$/,
    );
    await shot('05-connection-bad-keys');
    await page.getByLabel('Api key').fill(MAIN.apiKey);
    await button('Save').click();
    await page.locator('#settings-message', {hasText: 'Saved.'}).waitFor();
  });

  it('acts as a sub-account by name, and shows a refusal as plain text', async () => {
    await page.getByLabel('Or a sub-account by name').fill('<b>nobody</b>');
    await button('Use').click();
    const refusal = page.locator('#account-message[data-tone="error"]');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toBe(
      'The main account has no sub-account named "<b>nobody</b>".',
    );
    await expect(refusal.locator('*').count()).resolves.toBe(0);
    await page
      .getByLabel('Or a sub-account by name')
      .fill(DEMO_ACCOUNTS.subA.name);
    await button('Use').click();
    await page.locator('#account-message[data-tone="ok"]').waitFor();
    await expect(page.locator('#account-message').textContent()).resolves.toBe(
      `Jobs now act as sub-account ${DEMO_ACCOUNTS.subA.name}.`,
    );
    await expect(page.getByLabel('Act as').inputValue()).resolves.toBe(
      DEMO_ACCOUNTS.subA.name,
    );
    await shot('06-acting-sub-account');
    await page.getByLabel('Act as').selectOption('');
    await page
      .locator('#account-message', {
        hasText: 'Jobs now act as the main account.',
      })
      .waitFor();
  });

  it('acts as every account from the picker, offered above the main account', async () => {
    const picker = page.getByLabel('Act as');
    await expect(
      picker
        .locator('option')
        .evaluateAll(options =>
          options
            .slice(0, 2)
            .map(o => [(o as HTMLOptionElement).value, o.textContent]),
        ),
    ).resolves.toEqual([
      ['*', 'Every account'],
      ['', 'Main account'],
    ]);
    await picker.selectOption('*');
    await page
      .locator('#account-message[data-tone="ok"]', {
        hasText:
          'Jobs now act as every account: the main account and each sub-account the Sub-accounts sheet names (or the server lists)',
      })
      .waitFor();
    // Where it is chosen, what "every" covers (issue 36).
    await expect(page.locator('#account-hint').textContent()).resolves.toBe(
      'Every account: the main account and the sub-accounts named in the Sub-accounts sheet (Refresh sub-accounts fills it), with any the server lists.',
    );
    await expect(host.call('getSettings', [])).resolves.toMatchObject({
      ok: true,
      value: {actingAccount: '*'},
    });
    await expect(picker.inputValue()).resolves.toBe('*');
    await shot('06-acting-every-account');
    await picker.selectOption('');
    await page
      .locator('#account-message', {
        hasText: 'Jobs now act as the main account.',
      })
      .waitFor();
  });

  it('runs a refresh showing its progress, then its summary', async () => {
    // Every text "n of m rows" the sidebar shows, however briefly.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as {counts: string[]}).counts = seen;
      const count = document.getElementById('run-count')!;
      new MutationObserver(() => seen.push(count.textContent ?? '')).observe(
        count,
        {childList: true, characterData: true, subtree: true},
      );
    });
    await host.setFetchDelay(150);
    await button('Refresh offers and budgets').click();
    await expect(button('Push budgets').isDisabled()).resolves.toBe(true);
    await expect(page.locator('#run-title').textContent()).resolves.toBe(
      'Refresh offers and budgets…',
    );
    const result = page.locator('#result-message');
    await Promise.race([
      page.locator('#run-count', {hasText: / of 600 rows$/}).waitFor(),
      result.waitFor({timeout: 20000}),
    ]);
    await shot('07-refresh-progress');
    await result.waitFor({timeout: 20000});
    await host.setFetchDelay(0);
    const counts = await page.evaluate(
      () => (window as unknown as {counts: string[]}).counts,
    );
    const partial = counts.filter(text => {
      const [done, total] = (text.match(/^(\d+) of (\d+) rows$/) ?? [])
        .slice(1)
        .map(Number);
      return total === 600 && done < total;
    });
    expect({refreshShowedRowsSoFar: partial.length > 0, counts}).toEqual({
      refreshShowedRowsSoFar: true,
      counts: expect.arrayContaining(partial),
    });
    await expect(result.textContent()).resolves.toMatch(
      /^Refresh offers and budgets: Refreshed 600 offers \(main account\)/,
    );
    await expect(page.locator('#run').isHidden()).resolves.toBe(true);
    await expect(button('Push budgets').isEnabled()).resolves.toBe(true);
    await shot('08-refresh-done');
  });

  /** Two Budgets rows of offers the user may edit, with a BUDGET daily cap. */
  const editableBudgetRows = async (): Promise<number[]> => {
    const offers = await world<unknown[][]>('values', 'Offers');
    const budgets = await world<unknown[][]>('values', 'Budgets');
    const [oh, ...offerRows] = offers;
    const byAdv = new Set(
      offerRows
        .filter(r => r[oh.indexOf('maintain_by')] === 'ADV')
        .map(r => r[oh.indexOf('offer_id')]),
    );
    const [bh] = budgets;
    const rows: number[] = [];
    budgets.forEach((r, i) => {
      if (
        i > 0 &&
        byAdv.has(r[bh.indexOf('offer_id')]) &&
        r[bh.indexOf('daily_cap_type')] === 'BUDGET' &&
        r[bh.indexOf('country_code')] === 'ALL'
      ) {
        rows.push(i + 1);
      }
    });
    return rows.slice(0, 2);
  };

  it('previews a budget edit: nothing sent, the bad row listed and selectable', async () => {
    const [good, bad] = await editableBudgetRows();
    await world('type', 'Budgets', good, 'daily_cap', '120');
    await world('type', 'Budgets', bad, 'daily_cap', '10');
    const before = (await world<unknown[]>('requests')).length;
    await button('Preview: Push budgets').click();
    const result = page.locator('#result-message');
    await result.waitFor();
    await expect(result.textContent()).resolves.toMatch(
      /^Push budgets \(preview\): Preview \(nothing sent\): 1 row would be sent in 1 request; 1 row INVALID/,
    );
    await expect(
      page.locator('#result-problems summary').allTextContents(),
    ).resolves.toEqual(['Budgets: 1 row']);
    await expect(
      page.locator('#result-problems .problem-reason p').textContent(),
    ).resolves.toMatch(/^INVALID: .*daily_cap/);
    const problem = page.locator('#result-problems button');
    await expect(problem.count()).resolves.toBe(1);
    await expect(problem.textContent()).resolves.toBe(`row ${bad}`);
    await expect(problem.getAttribute('aria-label')).resolves.toBe(
      `Select Budgets row ${bad}`,
    );
    await expect(world('requests')).resolves.toHaveLength(before);
    // The body the push would send, folded under the summary; no change id: nothing was sent.
    const bodies = page.locator('#result-bodies');
    await expect(bodies.isVisible()).resolves.toBe(true);
    await expect(
      page.locator('#result-bodies-title').textContent(),
    ).resolves.toBe('1 request body known before sending');
    await page.locator('#result-bodies-title').click();
    const [body] = JSON.parse(
      `[${await page.locator('#result-bodies-json').textContent()}]`,
    ) as Array<{budget: Array<{daily_cap: unknown}>}>;
    expect(body.budget).toEqual([expect.objectContaining({daily_cap: 120})]);
    await expect(page.locator('#result-change').isVisible()).resolves.toBe(
      false,
    );
    await problem.click();
    await page
      .locator('#result-hint', {hasText: `Budgets row ${bad} is selected.`})
      .waitFor();
    await expect(world('activeSheet')).resolves.toBe('Budgets');
    await shot('09-budget-preview');
  });

  it('pushes the budget edit and says so', async () => {
    const [good, bad] = await editableBudgetRows();
    const budgets = await world<unknown[][]>('values', 'Budgets');
    const offerId = budgets[good - 1][budgets[0].indexOf('offer_id')];
    await world('type', 'Budgets', bad, 'daily_cap', '500');
    await button('Push budgets').click();
    const result = page.locator('#result-message[data-tone="ok"]');
    await result.waitFor();
    await expect(result.textContent()).resolves.toMatch(
      /^Push budgets: 2 OK, 0 invalid, 0 error/,
    );
    const history = await world<string[][]>('values', 'History');
    const changeId = history[history.length - 1][1];
    await expect(page.locator('#result-change').textContent()).resolves.toBe(
      `Change ${changeId}: its rows are in the History sheet, and History below can revert it.`,
    );
    await expect(page.locator('#result-bodies').isVisible()).resolves.toBe(
      false,
    );
    type Sent = {
      method: string;
      path: string;
      body: {offer_id: unknown; budget: unknown};
    };
    const sent = (await world<Sent[]>('requests')).filter(
      r => r.method === 'PUT' && r.path === '/api/open/v3/offer/budget',
    );
    expect(sent.find(r => r.body.offer_id === offerId)?.body.budget).toEqual([
      expect.objectContaining({country_code: 'ALL', daily_cap: 120}),
    ]);
    await shot('10-budget-pushed');
  });

  it('lists the push in History, reverts it, previews the revert and pushes it back', async () => {
    const history = await world<string[][]>('values', 'History');
    const at = (h: string) => history[0].indexOf(h);
    const pushed = history.slice(1);
    expect(pushed.map(r => r[at('job')])).toEqual([
      'pushBudgets',
      'pushBudgets',
    ]);
    const changeId = pushed[0][at('change_id')];
    const line = (r: string[]) =>
      `Budgets ${r[at('record')]} daily_cap [ALL]: ${r[at('before')]} → ${r[at('after')]}`;

    await button('Show recent changes').click();
    const runs = page.locator('#history-runs > li');
    await runs.first().waitFor();
    await expect(runs.count()).resolves.toBe(1);
    await expect(
      runs.first().locator('.history-title').textContent(),
    ).resolves.toBe('Push budgets');
    await expect(
      runs.first().locator('.history-lines li').allTextContents(),
    ).resolves.toEqual(pushed.map(line));
    await expect(page.locator('#history-message').textContent()).resolves.toBe(
      'The last run that sent something or found changes on the server.',
    );
    await shot('11-history-list');

    const before = (await world<unknown[]>('requests')).length;
    await button(`Revert change ${changeId}`).click();
    const result = page.locator('#result-message', {
      hasText: 'put back as EDITED',
    });
    await result.waitFor();
    await expect(result.textContent()).resolves.toBe(
      `Revert ${changeId}: 2 rows put back as EDITED: preview and push to send them. Nothing was sent.`,
    );
    await expect(world('requests')).resolves.toHaveLength(before);
    const budgets = await world<unknown[][]>('values', 'Budgets');
    const b = (h: string) => budgets[0].indexOf(h);
    for (const r of pushed) {
      const row = budgets.find(
        x => String(x[b('offer_id')]) === r[at('record')],
      )!;
      expect(String(row[b('daily_cap')])).toBe(r[at('before')]);
      expect(row[b('sync_status')]).toBe('EDITED');
    }
    await shot('12-history-reverted');

    await button('Preview: Push budgets').click();
    await page.locator('#result-message', {hasText: 'would be sent'}).waitFor();
    await expect(
      page.locator('#result-message').textContent(),
    ).resolves.toMatch(
      /^Push budgets \(preview\): Preview \(nothing sent\): 2 rows would be sent in 2 requests/,
    );
    await expect(world('requests')).resolves.toHaveLength(before);

    await button('Push budgets').click();
    await page
      .locator('#result-message[data-tone="ok"]', {
        hasText: 'Push budgets: 2 OK',
      })
      .waitFor();
    type Sent = {
      method: string;
      path: string;
      body: {offer_id: unknown; budget: Array<{daily_cap: unknown}>};
    };
    const sent = (await world<Sent[]>('requests'))
      .slice(before)
      .filter(r => r.method === 'PUT');
    expect(
      sent.map(r => [
        String(r.body.offer_id),
        String(r.body.budget[0].daily_cap),
      ]),
    ).toEqual(
      expect.arrayContaining(
        pushed.map(r => [r[at('record')], r[at('before')]]),
      ),
    );
    expect(sent).toHaveLength(2);
    // The list, open, shows the push back on top without being asked.
    await page
      .locator('#history-message', {hasText: 'The last 2 runs'})
      .waitFor();
    await expect(
      runs.first().locator('.history-lines li').first().textContent(),
    ).resolves.toMatch(/→ /);
    await shot('13-history-pushed-back');
  });

  it('sets a schedule, replaces it, shows its last run, and clears it', async () => {
    await page.getByLabel('How often').selectOption('4');
    const loads = answers('getSchedule');
    await button('Save schedule').click();
    await page.locator('#schedule-message[data-tone="ok"]').waitFor();
    await expect(page.locator('#schedule-message').textContent()).resolves.toBe(
      'Scheduled: Refresh everything, every 4 hours.',
    );
    await expect(world('triggers')).resolves.toEqual([
      {handler: 'scheduledRefresh', everyHours: 4},
    ]);
    await shot('11-schedule-every-4-hours');

    await page.getByLabel('How often').selectOption('24');
    // The save above is news to the sidebar's polling, which reloads the schedule: a choice
    // being made and not saved yet stays. Focus makes the sidebar ask at once.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await until(() => answers('getSchedule') > loads);
    // The page has run its handler of that answer: a round trip to the page comes after it.
    await page.evaluate(() => undefined);
    await expect(page.getByLabel('How often').inputValue()).resolves.toBe('24');
    await page.getByLabel('At what hour').selectOption('6');
    await page.getByLabel('What to refresh').selectOption('refreshCampaigns');
    await button('Save schedule').click();
    await page
      .locator('#schedule-message', {hasText: 'once a day at 06:00'})
      .waitFor();
    await expect(page.locator('#schedule-message').textContent()).resolves.toBe(
      'Scheduled: Refresh campaigns, once a day at 06:00 (Etc/UTC).',
    );
    await expect(world('triggers')).resolves.toEqual([
      {handler: 'scheduledRefresh', everyHours: 24},
    ]);
    await expect(world('passHours', 25)).resolves.toEqual([
      {name: 'scheduledRefresh', error: null},
    ]);
    await open();
    const last = page.locator('#schedule-last', {
      hasText: 'Last scheduled run',
    });
    await last.waitFor();
    await expect(last.textContent()).resolves.toMatch(
      /^Last scheduled run, .+: Refresh campaigns: Refreshed 12 campaigns \(main account\)/,
    );
    await shot('12-schedule-daily-last-run');

    await page.getByLabel('How often').selectOption('0');
    await button('Save schedule').click();
    await page
      .locator('#schedule-message', {hasText: 'Scheduled refresh is off.'})
      .waitFor();
    await expect(world('triggers')).resolves.toEqual([]);
    await shot('13-schedule-off');
  });

  it('shows a job run from the menu, a scheduled run and Schedule > Turn off without a reload', async () => {
    await page.getByLabel('How often').selectOption('1');
    await page.getByLabel('What to refresh').selectOption('refreshCampaigns');
    await button('Save schedule').click();
    await page.locator('#schedule-message', {hasText: 'every hour'}).waitFor();

    await world('clickMenu', 'Refresh campaigns');
    const result = page.locator('#result-message', {
      hasText: '(from the menu)',
    });
    await result.waitFor({timeout: POLL_WAIT_MS});
    await expect(result.textContent()).resolves.toMatch(
      /^Refresh campaigns \(from the menu\): Refreshed 12 campaigns \(main account\)/,
    );
    await shot('14-menu-run-shown');

    const before = await page.locator('#schedule-last').textContent();
    await expect(world('passHours', 1)).resolves.toEqual([
      {name: 'scheduledRefresh', error: null},
    ]);
    await page.waitForFunction(
      text => document.getElementById('schedule-last')!.textContent !== text,
      before,
      {timeout: POLL_WAIT_MS},
    );
    await expect(page.locator('#schedule-last').textContent()).resolves.toMatch(
      /^Last scheduled run, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: Refresh campaigns: Refreshed 12 campaigns \(main account\)/,
    );

    await world('clickMenu', 'Turn scheduled refresh off');
    await page
      .locator('#schedule-message', {hasText: 'Scheduled refresh is off.'})
      .waitFor({timeout: POLL_WAIT_MS});
    await expect(page.getByLabel('How often').inputValue()).resolves.toBe('0');
    await expect(page.locator('#schedule-message').textContent()).resolves.toBe(
      'Scheduled refresh is off.',
    );
    await expect(world('triggers')).resolves.toEqual([]);
    await shot('15-menu-schedule-off-shown');
  });

  it('shows the rows done of a job started from the menu while it runs, then its summary', async () => {
    // Slow enough for the sidebar's poll (15 s while idle, then 3 s) to catch it under way.
    await host.setFetchDelay(1500);
    const job = world('clickMenu', 'Refresh offers and budgets');
    await page
      .locator('#run-title', {
        hasText:
          'Refresh offers and budgets… (started elsewhere: the menu, the schedule or another editor)',
      })
      .waitFor({timeout: 20000});
    await page
      .locator('#run-count', {hasText: / of 600 rows$/})
      .waitFor({timeout: 20000});
    await shot('15a-menu-job-progress');
    await job;
    await host.setFetchDelay(0);
    const result = page.locator('#result-message', {
      hasText: 'Refresh offers and budgets (from the menu)',
    });
    await result.waitFor({timeout: POLL_WAIT_MS});
    await expect(result.textContent()).resolves.toMatch(
      /^Refresh offers and budgets \(from the menu\): Refreshed 600 offers \(main account\)/,
    );
    await expect(page.locator('#run').isHidden()).resolves.toBe(true);
  });

  it("shows a menu job's result within seconds of its end once the user went to the spreadsheet, not at the next idle poll", async () => {
    // The user leaves the sidebar for the spreadsheet's menu: its window loses the focus.
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await world('clickMenu', 'Refresh campaigns');
    const ended = Date.now();
    const result = page.locator('#result-message', {
      hasText: 'Refresh campaigns (from the menu)',
    });
    // The idle poll would take up to 15 s; the pace after the user left, a second (issue 36).
    // Under load a poll takes longer: what is asserted is that no idle pause was waited out.
    await result.waitFor({timeout: IDLE_POLL_MS});
    expect(Date.now() - ended).toBeLessThan(IDLE_POLL_MS);
  });

  it('a reload during its own job shows the result when the job ends', async () => {
    await host.setFetchDelay(1000);
    await button('Refresh offers and budgets').click();
    await page.locator('#run-count', {hasText: / of 600 rows$/}).waitFor({
      timeout: 20000,
    });
    // Reloaded: the call's answer is lost with the page.
    await open();
    const result = page.locator('#result-message', {
      hasText: 'Refresh offers and budgets (from the sidebar)',
    });
    await result.waitFor({timeout: POLL_WAIT_MS});
    await host.setFetchDelay(0);
    await expect(result.textContent()).resolves.toMatch(
      /^Refresh offers and budgets \(from the sidebar\): Refreshed 600 offers \(main account\)/,
    );
    await expect(page.locator('#run').isHidden()).resolves.toBe(true);
    await shot('15b-reloaded-during-job');

    // Reloaded again: the last result is still shown.
    await open();
    await result.waitFor({timeout: 10000});
  });

  it('says a schedule paused itself after 5 failures, and why; saving it again resumes it', async () => {
    const keys = (apiKey: string) =>
      host.call('saveSettings', [
        {baseUrl: BASE_URL, accessKey: MAIN.accessKey, apiKey},
      ]);
    await keys('fake-wrong-api-key-00000000000');
    await page.getByLabel('How often').selectOption('1');
    await page.getByLabel('What to refresh').selectOption('refreshCampaigns');
    await button('Save schedule').click();
    await page.locator('#schedule-message', {hasText: 'every hour'}).waitFor();
    await expect(world('passHours', 6)).resolves.toHaveLength(5);
    const paused = page.locator('#schedule-message', {
      hasText: 'Paused after 5 failed runs in a row',
    });
    await paused.waitFor({timeout: POLL_WAIT_MS});
    await expect(paused.textContent()).resolves.toBe(
      'Paused after 5 failed runs in a row: GET campaign: code 10005 invalid token [token: The token must be md5(api_key + md5(timestamp)) in lowercase hex.]. Choose a schedule again to resume.',
    );
    await expect(page.locator('#schedule-last').textContent()).resolves.toMatch(
      /^Last scheduled run, .+: Refresh campaigns failed: GET campaign: code 10005 .* Emailed user@example\.com\.$/,
    );
    await expect(world('triggers')).resolves.toEqual([]);
    await shot('15b-schedule-paused');

    await keys(MAIN.apiKey);
    await button('Save schedule').click();
    await page
      .locator('#schedule-message', {
        hasText: 'Scheduled: Refresh campaigns, every hour.',
      })
      .waitFor();
    await expect(world('triggers')).resolves.toEqual([
      {handler: 'scheduledRefresh', everyHours: 1},
    ]);
    await page.getByLabel('How often').selectOption('0');
    await button('Save schedule').click();
    await page
      .locator('#schedule-message', {hasText: 'Scheduled refresh is off.'})
      .waitFor();
  });

  it('creates a sub-account from a password field: the password reaches no cell', async () => {
    await page.getByLabel('User name').fill('team_faro');
    await page.getByLabel('Password').fill('pa55-word!');
    await button('Create sub-account').click();
    const message = page.locator('#new-sub-message[data-tone="ok"]');
    await message.waitFor();
    await expect(message.textContent()).resolves.toBe(
      'Created sub-account team_faro: Act as offers it, and its row in Sub-accounts has its access_key.',
    );
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    await expect(
      page.locator('#account option[value="team_faro"]').textContent(),
    ).resolves.toBe('Sub-account team_faro');
    const sent = (
      await world<Array<{method: string; path: string; body: unknown}>>(
        'requests',
      )
    ).filter(r => r.method === 'POST');
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      path: '/api/open/v3/sub_adv_account',
      body: {sub_adv_user_name: 'team_faro', password: 'pa55-word!'},
    });
    const cells = JSON.stringify(
      await world<unknown[][]>('values', 'Sub-accounts'),
    );
    expect(cells).toContain('team_faro');
    expect(cells).not.toContain('pa55-word!');
    await shot('16-new-sub-account');
  });

  it('after a lost answer whose look-up fails too, says the sub-account may exist, not that it was not created', async () => {
    const path = '/api/open/v3/sub_adv_account';
    await world('faults', [
      {kind: 'drop', method: 'POST', path, count: 1, applied: true},
      {kind: 'error', method: 'GET', path, status: 503},
    ]);
    try {
      await page.getByLabel('User name').fill('team_evora');
      await page.getByLabel('Password').fill('pa55-word!');
      await button('Create sub-account').click();
      const message = page.locator('#new-sub-message[data-tone="error"]');
      await message.waitFor();
      const text = await message.textContent();
      expect(text).toMatch(
        /^Sub-account team_evora: .*it may or may not exist\./,
      );
      expect(text).not.toMatch(/not created/i);
      await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    } finally {
      await world('faults', []);
    }
  });

  it('offers a Preview and a Run for each create job; a preview sends nothing', async () => {
    for (const title of [
      'Upload creative materials',
      'Create new offers',
      'Create sub-accounts',
    ]) {
      await expect(button(`Preview: ${title}`).textContent()).resolves.toBe(
        'Preview',
      );
      await expect(button(title).textContent()).resolves.toBe('Run');
    }
    const before = (await world<unknown[]>('requests')).length;
    await button('Preview: Create sub-accounts').click();
    const result = page.locator('#result-message', {
      hasText: 'Create sub-accounts (preview)',
    });
    await result.waitFor();
    // The sidebar's create of team_evora above lost its answer: its outbox entry is still
    // out, and a run looks that name up first (the one request), whatever the rows hold.
    await expect(result.textContent()).resolves.toBe(
      'Create sub-accounts (preview): Preview (nothing sent): 0 rows would be sent in 1 request (main account).',
    );
    await expect(world('requests')).resolves.toHaveLength(before);
  });

  describe('its polls', () => {
    /** A second sidebar whose getSidebarState answers through `poll`; other calls as usual. */
    async function sidebarWith(
      poll: (call: () => Promise<unknown>) => Promise<unknown>,
      setUp: (p: Page) => Promise<void> = async () => {},
    ): Promise<Page> {
      const other = await browser.newPage({
        viewport: {width: 300, height: 900},
      });
      other.setDefaultTimeout(BROWSER_WAIT_MS);
      await setUp(other);
      await other.exposeFunction(BINDING, async (body: string) => {
        const {name, args} = JSON.parse(body) as {
          name: string;
          args: unknown[];
        };
        const call = () => host.call(name, args);
        return JSON.stringify(
          await (name === 'getSidebarState' ? poll(call) : call()),
        );
      });
      const {html} = await host.openSidebar();
      await other.setContent(withShim(html, googleScriptRunShim()));
      return other;
    }

    it('says how to fix a failed poll of a browser signed into several Google accounts', async () => {
      let refuse = true;
      const other = await sidebarWith(call =>
        refuse
          ? Promise.resolve({
              ok: false,
              error: {
                name: 'ScriptError',
                message: 'Authorization is required to perform that action.',
              },
            })
          : call(),
      );
      try {
        const message = other.locator('#poll-message[data-tone="error"]');
        await message.waitFor();
        await expect(message.textContent()).resolves.toBe(
          'The sidebar cannot reach Offer Desk: Google refused its call (Authorization is required to perform that action.). This happens when the browser is signed into more than one Google account. Use one Google account per browser profile (or a private window signed into this account only), then open the sidebar again.',
        );
        await other.screenshot({
          path: join(ARTIFACTS, '17-poll-failed.png'),
          fullPage: true,
        });
        // Signed into one account: the next poll (at once when the sidebar is focused) clears it.
        refuse = false;
        await other.evaluate(() => window.dispatchEvent(new Event('focus')));
        await other.locator('#poll-message:empty').waitFor({state: 'attached'});
      } finally {
        await other.close();
      }
    });

    it('never asks again before the last poll answered, however slow the answer', async () => {
      let underWay = 0;
      let most = 0;
      let polls = 0;
      const other = await sidebarWith(
        async call => {
          polls++;
          underWay++;
          most = Math.max(most, underWay);
          try {
            // Slower than the pause between polls: a timer of the old kind would pile them up.
            await new Promise(resolve => setTimeout(resolve, 1500));
            return await call();
          } finally {
            underWay--;
          }
        },
        p => p.clock.install(),
      );
      try {
        for (let n = 0; n < 4; n++) {
          // Two minutes of the sidebar's time at once, in which a 15 s timer fires 8 times.
          const before = polls;
          await other.clock.runFor(120_000);
          // Its answer awaited, however busy the machine: the next round starts from rest.
          await until(() => polls > before && underWay === 0);
        }
        expect(most).toBe(1);
        expect(polls).toBeGreaterThanOrEqual(2);
        expect(polls).toBeLessThanOrEqual(5);
      } finally {
        await other.close();
      }
    });
  });

  it('opens the Google Picker dialog from "Choose files…"', async () => {
    await button('Choose files…').click();
    // google.script.run answers later: wait for the server to have opened it.
    let shown: unknown[] = [];
    await until(async () => {
      shown = await world<unknown[]>('dialogs');
      return shown.length > 0;
    });
    expect(shown).toEqual([
      {title: 'Choose material files', width: 900, height: 600},
    ]);
    await expect(
      page.locator('#choose-files-message').textContent(),
    ).resolves.toBe('');
  });

  /**
   * The first Budgets row of an ADV offer with one BUDGET ALL group whose daily cap is a
   * number (a cap raised from OPEN is no raise), not touched above.
   */
  const untouchedBudgetRow = async (): Promise<{row: number; id: number}> => {
    const taken = new Set(await editableBudgetRows());
    const budgets = await world<unknown[][]>('values', 'Budgets');
    const offers = await world<unknown[][]>('values', 'Offers');
    const [oh, ...offerRows] = offers;
    const adv = new Set(
      offerRows
        .filter(r => r[oh.indexOf('maintain_by')] === 'ADV')
        .map(r => r[oh.indexOf('offer_id')]),
    );
    const [bh] = budgets;
    const at = (h: string) => bh.indexOf(h);
    const row = budgets.findIndex(
      (r, i) =>
        i > 0 &&
        !taken.has(i + 1) &&
        adv.has(r[at('offer_id')]) &&
        r[at('daily_cap_type')] === 'BUDGET' &&
        r[at('country_code')] === 'ALL' &&
        typeof r[at('daily_cap')] === 'number' &&
        r[at('sync_status')] === '',
    );
    return {row: row + 1, id: Number(budgets[row][at('offer_id')])};
  };

  it('asks before sending a large budget change: No keeps it EDITED and says why, Yes sends it', async () => {
    const {row, id} = await untouchedBudgetRow();
    await world('type', 'Budgets', row, 'daily_cap', '1000000');
    await world('answerNextAlert', 'NO');
    await button('Push budgets').click();
    const result = page.locator('#result-message', {
      hasText: 'The budget guard held',
    });
    await result.waitFor();
    await expect(result.textContent()).resolves.toContain(
      `The budget guard held 1 offer (row ${row}): not sent, as you answered No.`,
    );
    const question = (
      await world<Array<{title: string; prompt: string; response: string}>>(
        'questions',
      )
    ).at(-1)!;
    expect(question.title).toBe('Send large budget changes?');
    expect(question.prompt).toMatch(
      new RegExp(
        `^The budget guard holds 1 offer of this push:\n• offer ${id} \\(.*\\): daily_cap \\(BUDGET, all groups\\) [\\d,.]+ → 1,000,000: `,
      ),
    );
    expect(question.response).toBe('NO');
    const sent = await world<Array<{body: {offer_id?: number}}>>('requests');
    expect(sent.filter(r => r.body?.offer_id === id)).toEqual([]);
    const [headers, ...rows] = await world<unknown[][]>('values', 'Budgets');
    expect(rows[row - 2][headers.indexOf('sync_status')]).toBe('EDITED');
    await shot('17-budget-guard-held');

    await world('answerNextAlert', 'YES');
    await button('Push budgets').click();
    await page
      .locator('#result-message', {
        hasText: 'You confirmed 1 offer past the budget guard.',
      })
      .waitFor();
    const after = await world<Array<{body: {offer_id?: number}}>>('requests');
    expect(after.filter(r => r.body?.offer_id === id)).toHaveLength(1);
  });

  it('counts the alerts not seen: an offer stopped on the server, then a refresh', async () => {
    const count = page.locator('#alerts-count');
    // The scheduled and menu refreshes above may have found some already.
    const before =
      (await world<unknown[][]>('values', 'Alerts').catch(() => [[]])).length -
      1;
    await expect(count.textContent()).resolves.toBe(
      before === 0
        ? 'No alert waiting: refreshes of offers add them to the Alerts sheet.'
        : `${before} ${before === 1 ? 'alert' : 'alerts'} not seen yet: see the Alerts sheet, and tick seen once you have looked.`,
    );
    const [oh, ...offers] = await world<unknown[][]>('values', 'Offers');
    const running = offers.find(r => r[oh.indexOf('status')] === 'RUNNING')!;
    await world('updateOffer', running[oh.indexOf('offer_id')], {
      status: 'STOPPED',
      offer_stop_reason: 'INSUFFICIENT_BALANCE',
    });
    await button('Refresh offers and budgets').click();
    await page
      .locator('#result-message', {hasText: 'new alert'})
      .waitFor({timeout: 20000});
    const [ah, ...alerts] = await world<unknown[][]>('values', 'Alerts');
    const unseen = alerts.length;
    expect(unseen).toBeGreaterThan(before);
    expect(
      alerts.find(
        r => r[ah.indexOf('offer_id')] === running[oh.indexOf('offer_id')],
      ),
    ).toBeDefined();
    await page
      .locator('#alerts-count', {
        hasText: `${unseen} ${unseen === 1 ? 'alert' : 'alerts'} not seen yet: see the Alerts sheet, and tick seen once you have looked.`,
      })
      .waitFor();
    await shot('18-alerts-count');

    // Ticking seen warns of nothing, and the open sidebar counts again at its next poll.
    await world('type', 'Alerts', 2, 'seen', 'x');
    await page
      .locator('#alerts-count', {
        hasText: `${unseen - 1} ${unseen - 1 === 1 ? 'alert' : 'alerts'} not seen yet`,
      })
      .waitFor({timeout: POLL_WAIT_MS});
  });

  it('acting as every account, lists a line per account under a refresh, the one left out first', async () => {
    await button('Refresh sub-accounts').click();
    await page.locator('#result-message', {hasText: 'sub-account'}).waitFor();
    await world('type', 'Sub-accounts', 2, 'sub_adv_user_name', 'demo_sub_a');
    await world('type', 'Sub-accounts', 3, 'sub_adv_user_name', 'demo_sub_b');
    await world('faults', [
      {
        kind: 'error',
        status: 503,
        account: 'demo_sub_b',
        path: '/api/open/v3/offers',
      },
    ]);
    await page.getByLabel('Act as').selectOption('*');
    await page
      .locator('#account-message', {hasText: 'every account'})
      .waitFor();
    await button('Refresh offers and budgets').click();
    await page
      .locator('#result-message', {hasText: 'Not refreshed'})
      .waitFor({timeout: 20000});
    const lines = await page
      .locator('#result-accounts li')
      .evaluateAll(items =>
        items.map(li => [li.className, li.textContent ?? '']),
      );
    expect(lines).toHaveLength(3);
    expect(lines[0][0]).toBe('failed');
    expect(lines[0][1]).toMatch(
      /^sub-account demo_sub_b: not refreshed, its rows as they were: .*503/,
    );
    expect(lines.slice(1)).toEqual([
      ['', expect.stringMatching(/^main account: \d+ records$/)],
      ['', expect.stringMatching(/^sub-account demo_sub_a: \d+ records$/)],
    ]);
    await shot('19-every-account-lines');
    await world('faults', []);
    await page.getByLabel('Act as').selectOption('');
    await page
      .locator('#account-message', {
        hasText: 'Jobs now act as the main account.',
      })
      .waitFor();
  });

  it(
    "shows one account's rows: every record sheet filtered, nothing sent; Every account shows them all again",
    async () => {
      const before = (await world<unknown[]>('requests')).length;
      await page.getByLabel('Show rows of').selectOption('demo_sub_a');
      await button('Show').click();
      await page
        .locator('#show-account-message[data-tone="ok"]', {
          hasText:
            /^Only the rows of the sub-account demo_sub_a are shown \(.*Offers.*\)/,
        })
        .waitFor();
      await expect(world<unknown[]>('requests')).resolves.toHaveLength(before);
      await page.getByLabel('Show rows of').selectOption('*');
      await button('Show').click();
      await page
        .locator('#show-account-message', {
          hasText: "Every account's rows are shown",
        })
        .waitFor();
    },
    // Seven sheets of every account's rows read and filtered, twice: slow on a loaded machine.
    90000,
  );

  it('pushes a budget edit later: nothing sent, the change listed as waiting, and Cancel cancels it', async () => {
    const rows = await editableBudgetRows();
    const row = rows[rows.length - 1];
    await world('type', 'Budgets', row, 'daily_cap', '130');
    const sent = (await world<unknown[]>('requests')).length;
    // A day ahead, typed as the spreadsheet's time zone (UTC here) shows it.
    const at = (await world<number>('now')) + 24 * 3600_000;
    // Typed as the sheets write dates (ISO), whatever the browser's own order (issue 36).
    const typed = new Date(at).toISOString().slice(0, 16).replace('T', ' ');
    await expect(
      page.getByLabel('Send at').getAttribute('placeholder'),
    ).resolves.toBe('yyyy-mm-dd hh:mm');
    await page.getByLabel('Send at').fill(typed);
    await button('Push later…').click();
    await page
      .locator('#result-message', {hasText: 'scheduled as change'})
      .waitFor();
    const scheduled = await world<unknown[][]>('values', 'Scheduled');
    const [head, only] = scheduled;
    expect(scheduled).toHaveLength(2);
    expect(only[head.indexOf('status')]).toBe('WAITING');
    expect(only[head.indexOf('after')]).toBe('130');
    const requests = await world<Array<{method: string}>>('requests');
    expect(requests.slice(sent).filter(r => r.method === 'PUT')).toEqual([]);

    await button('Show waiting changes').click();
    const changeId = String(only[head.indexOf('change_id')]);
    const item = page.locator('#later-list li.history-run');
    await item.waitFor();
    await expect(item.locator('.history-title').textContent()).resolves.toBe(
      `Sends at ${typed} (Etc/UTC)`,
    );
    await shot('20-push-later-waiting');
    await page.getByRole('button', {name: `Cancel change ${changeId}`}).click();
    await page.locator('#result-message', {hasText: 'cancelled'}).waitFor();
    await page
      .locator('#later-message', {hasText: 'No change you can see is waiting.'})
      .waitFor();
    const after = await world<unknown[][]>('values', 'Scheduled');
    expect(after[1][head.indexOf('status')]).toBe('CANCELLED');
  });

  it('pushes a tracking edit later when Tracking is chosen: its fields are scheduled, nothing sent', async () => {
    const [oh, ...offers] = await world<unknown[][]>('values', 'Offers');
    const k = offers.findIndex(r => r[oh.indexOf('maintain_by')] === 'ADV');
    const id = String(offers[k][oh.indexOf('offer_id')]);
    const url = 'https://t.example.test/later';
    await world('type', 'Offers', k + 2, 'support_server_click', 'NO');
    await world('type', 'Offers', k + 2, 'click_url', url);
    const sent = (await world<unknown[]>('requests')).length;
    const at = (await world<number>('now')) + 24 * 3600_000;
    await page.locator('#later-push').selectOption('pushTracking');
    await page
      .getByLabel('Send at')
      .fill(new Date(at).toISOString().slice(0, 16));
    await button('Push later…').click();
    await page
      .locator('#result-message', {hasText: 'scheduled as change'})
      .waitFor();
    const [head, ...rows] = await world<unknown[][]>('values', 'Scheduled');
    const waiting = rows
      .filter(r => r[head.indexOf('status')] === 'WAITING')
      .map(r => ['record', 'field', 'after'].map(h => r[head.indexOf(h)]));
    expect(waiting).toEqual([
      [id, 'click_url', url],
      [id, 'support_server_click', 'NO'],
    ]);
    const requests = await world<Array<{method: string}>>('requests');
    expect(requests.slice(sent).filter(r => r.method === 'PUT')).toEqual([]);
  });
});
