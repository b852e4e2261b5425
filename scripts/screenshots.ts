/**
 * `npm run screenshots`: pictures of the playground for the docs (docs/images/*.png), taken in
 * headless Chromium from the built add-on, so they show what the code does today. With
 * `--only-clone` (after `npm run build`: `npx tsx scripts/screenshots.ts --only-clone`) it takes
 * the clone dialog's picture alone, after the same first steps.
 */
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {
  CHROMIUM_PATH,
  haveChromium,
  launchChromium,
} from '../local/playground/chromium';
import {PlaygroundDriver, ShownRow, VIEWPORT} from '../local/playground/driver';
import type {WorkbookView} from '../local/playground/protocol';
import {startPlayground} from '../local/playground/server';

const IMAGES = join(__dirname, '..', 'docs', 'images');

/**
 * `--only NAME.png`: every step runs (each picture builds on the ones before), but only that
 * picture is written.
 */
const ONLY = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : undefined;

/** Two Budgets rows of offers the user may edit, each the offer's one ALL budget. */
async function editableBudgets(ui: PlaygroundDriver): Promise<ShownRow[]> {
  const adv = new Set(
    (await ui.sheet('Offers'))
      .filter(o => o.cells.maintain_by === 'ADV')
      .map(o => o.cells.offer_id),
  );
  return (await ui.sheet('Budgets'))
    .filter(
      b =>
        adv.has(b.cells.offer_id) &&
        b.cells.country_code === 'ALL' &&
        b.cells.daily_cap_type === 'BUDGET',
    )
    .slice(0, 2);
}

/** 'yyyy-mm-dd hh:mm' of `ms` in `timeZone`: a time as Push later takes it, as the sheets show it. */
function wallTime(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map(p => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

async function main(): Promise<void> {
  if (!haveChromium()) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  mkdirSync(IMAGES, {recursive: true});
  const [playground, browser] = await Promise.all([
    startPlayground(),
    launchChromium(),
  ]);
  try {
    const ui = await PlaygroundDriver.open(browser, playground);
    /**
     * Waits until the virtual clock stands still: the sidebar's own calls (an alert count after
     * a job, say) land when the page makes them, and a job started, or a picture taken, before
     * one of them would show other times from one run to the next.
     */
    const quiet = async () => {
      for (let last = NaN; ; await ui.page.waitForTimeout(300)) {
        const {nowMs} = await playground.host.invoke<WorkbookView>('workbook');
        if (nowMs === last) return;
        last = nowMs;
      }
    };
    const save = async (name: string) => {
      await quiet();
      if (ONLY && name !== ONLY) return;
      await ui.page.mouse.move(0, 0);
      await ui.page.screenshot({path: join(IMAGES, name)});
      console.log(`docs/images/${name}`);
    };
    /** The sidebar alone. */
    const savePanel = async (name: string) => {
      await quiet();
      if (ONLY && name !== ONLY) return;
      await ui.page
        .locator('#sidebar-panel')
        .screenshot({path: join(IMAGES, name)});
      console.log(`docs/images/${name}`);
    };

    await ui.connect();
    await quiet();
    await ui.sidebarButton('Test connection').click();
    await ui.sidebar
      .locator('#settings-message[data-tone="ok"]', {hasText: 'Connected'})
      .waitFor();
    await quiet();
    await ui.menu('Offer Desk', 'Refresh', 'Refresh everything');
    /** Create > Clone selected offers… for two rows selected in Offers, its targets typed. */
    const cloneShot = async () => {
      await ui.openSheet('Offers');
      await (await ui.cellAt(2, 'offer_name')).click();
      await ui.page.keyboard.down('Shift');
      await (await ui.cellAt(3, 'offer_name')).click();
      await ui.page.keyboard.up('Shift');
      await ui.page.waitForTimeout(400);
      await ui.menu('Offer Desk', 'Create', 'Clone selected offers…');
      const dialog = ui.page.frameLocator('#html-dialog-frame');
      await dialog.locator('#offers li', {hasText: 'offer '}).first().waitFor();
      await dialog.locator('#geos').fill('DE,FR,IT');
      await save('playground-clone.png');
      await ui.page.getByRole('button', {name: 'Close dialog'}).click();
    };
    if (process.argv.includes('--only-clone')) {
      await cloneShot();
      return;
    }
    await ui.openSheet('Offers');
    await ui.openMenu('Offer Desk', 'Push');
    await save('playground-overview.png');
    await ui.page.keyboard.press('Escape');
    await ui.dismissToasts();

    const [good, bad] = await editableBudgets(ui);
    // Budgets as a laptop shows it beside the open sidebar: account through sync_status in
    // view, the currency beside the caps (issue 33).
    await ui.page.setViewportSize({width: 1280, height: 720});
    await ui.openSheet('Budgets');
    await ui.type(good.row, 'daily_cap', '120');
    await ui.type(bad.row, 'daily_cap', '10');
    await quiet();
    const preview = ui.menu('Offer Desk', 'Push', 'Push budgets (preview)');
    await ui.dialog();
    await save('playground-alert.png');
    await ui.answerDialog('OK');
    await preview;
    await ui.dismissToasts();
    await (await ui.cellAt(bad.row, 'sync_message')).click();
    await ui.page.locator('#grid').evaluate(g => g.scrollTo(0, 0));
    await save('playground-budgets.png');
    await ui.page.setViewportSize(VIEWPORT);

    await ui.menu('Offer Desk', 'Open sidebar');
    await quiet();
    await ui.sidebarButton('Preview: Push budgets').click();
    await ui.sidebar.locator('#result-problems button').first().waitFor();
    await ui.sidebar
      .locator('#jobs-heading')
      .evaluate(heading => heading.scrollIntoView({block: 'start'}));
    await savePanel('playground-sidebar.png');

    // History: push the edits, list the run in the sidebar, and show the sheet itself.
    await ui.page.getByRole('button', {name: 'Close sidebar'}).click();
    await ui.type(bad.row, 'daily_cap', '500');
    await quiet();
    await ui.menu('Offer Desk', 'Push', 'Push budgets');
    await ui.dismissToasts();
    await ui.menu('Offer Desk', 'Open sidebar');
    await ui.sidebarButton('Show recent changes').click();
    await ui.sidebar.locator('#history-runs > li').first().waitFor();
    await ui.sidebar
      .locator('#history-heading')
      .evaluate(heading => heading.scrollIntoView({block: 'start'}));
    await savePanel('playground-history.png');
    await ui.page.getByRole('button', {name: 'Close sidebar'}).click();
    await ui.openSheet('History');
    await ui.page.locator('#grid').evaluate(grid => grid.scrollTo(0, 0));
    await save('playground-history-sheet.png');

    // Alerts: two offers stop on the server, a refresh tells them; one comes back, the next tells that.
    const running = (await ui.sheet('Offers'))
      .filter(o => o.cells.status === 'RUNNING')
      .slice(0, 2)
      .map(o => Number(o.cells.offer_id));
    const stop = (id: number, offer_stop_reason: string) =>
      playground.host.invoke('updateOffer', id, {
        status: 'STOPPED',
        offer_stop_reason,
      });
    await stop(running[0], 'INSUFFICIENT_BALANCE');
    await stop(running[1], 'CREATIVE_REJECTED');
    await quiet();
    await ui.menu('Offer Desk', 'Refresh', 'Refresh offers and budgets');
    await ui.dismissToasts();
    await playground.host.invoke('updateOffer', running[0], {
      status: 'RUNNING',
      offer_stop_reason: '',
    });
    await quiet();
    await ui.menu('Offer Desk', 'Refresh', 'Refresh offers and budgets');
    await ui.dismissToasts();
    await ui.openSheet('Alerts');
    await ui.page.locator('#grid').evaluate(grid => grid.scrollTo(0, 0));
    await save('playground-alerts.png');

    // Changed on the server: two bids changed behind Offer Desk; the refresh
    // records them in History, and the sidebar lists them under their own heading.
    await playground.host.invoke('updateOffer', Number(good.cells.offer_id), {
      bid_rate: 2.4,
    });
    await playground.host.invoke('updateOffer', running[1], {
      bid_rate: 0.9,
    });
    await quiet();
    await ui.menu('Offer Desk', 'Refresh', 'Refresh offers and budgets');
    await ui.dismissToasts();
    await ui.menu('Offer Desk', 'Open sidebar');
    await ui.sidebarButton('Show recent changes').click();
    await ui.sidebar
      .locator('#history-runs > li', {hasText: 'Changed on the server'})
      .first()
      .waitFor();
    await ui.sidebar
      .locator('#history-heading')
      .evaluate(heading => heading.scrollIntoView({block: 'start'}));
    await savePanel('playground-history-server.png');
    await ui.page.getByRole('button', {name: 'Close sidebar'}).click();

    // Push later: two budget edits scheduled, listed as waiting; the trigger sends them.
    await ui.openSheet('Budgets');
    await ui.type(good.row, 'daily_cap', '130');
    await ui.type(bad.row, 'daily_cap', '450');
    const {nowMs, timeZone} =
      await playground.host.invoke<WorkbookView>('workbook');
    const quarter = 15 * 60_000;
    const at = Math.ceil((nowMs + 30 * 60_000) / quarter) * quarter;
    await ui.menu('Offer Desk', 'Push', 'Push later…');
    await ui.sidebar.getByLabel('Send at').fill(wallTime(at, timeZone));
    await ui.sidebar
      .getByLabel('Put back at (optional)')
      .fill(wallTime(at + 6 * 3600_000, timeZone));
    await quiet();
    await ui.sidebarButton('Push later…').click();
    await ui.sidebar
      .locator('#result-message', {hasText: 'scheduled as change'})
      .waitFor();
    await ui.sidebarButton('Show waiting changes').click();
    await ui.sidebar.locator('#later-list li.history-run').waitFor();
    await ui.sidebar
      .locator('#later-heading')
      .evaluate(heading => heading.scrollIntoView({block: 'start'}));
    await savePanel('playground-push-later.png');
    await ui.page.getByRole('button', {name: 'Close sidebar'}).click();
    await quiet();
    await ui.page
      .getByRole('button', {name: 'Run scheduled trigger now'})
      .click();
    // The run shows itself in the sidebar, opened again: closed for the sheet.
    await ui.page
      .locator('.toast', {hasText: 'Scheduled refresh ran at'})
      .waitFor();
    await ui.settled();
    await ui.page.getByRole('button', {name: 'Close sidebar'}).click();
    await ui.dismissToasts();
    await ui.openSheet('Scheduled');
    // From account to message: the change and its times are in the sidebar's list above.
    const account = ui.cell(1, await ui.column('account'));
    const left = await account.evaluate(
      (td: HTMLElement) =>
        td.offsetLeft -
        (td.parentElement?.firstElementChild as HTMLElement).offsetWidth,
    );
    await ui.page
      .locator('#grid')
      .evaluate((grid, x) => grid.scrollTo(x, 0), left);
    // The message in full, in the formula bar.
    await (await ui.cellAt(2, 'message')).click();
    await save('playground-scheduled-sheet.png');
    await cloneShot();
  } finally {
    await browser.close();
    await playground.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
