/**
 * `npm run screenshots`: pictures of the playground for the docs (docs/images/*.png), taken in
 * headless Chromium from the built add-on, so they show what the code does today.
 */
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {
  CHROMIUM_PATH,
  haveChromium,
  launchChromium,
} from '../local/playground/chromium';
import {PlaygroundDriver, ShownRow} from '../local/playground/driver';
import {startPlayground} from '../local/playground/server';

const IMAGES = join(__dirname, '..', 'docs', 'images');

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
    const save = async (name: string) => {
      await ui.page.mouse.move(0, 0);
      await ui.page.screenshot({path: join(IMAGES, name)});
      console.log(`docs/images/${name}`);
    };

    await ui.connect();
    await ui.sidebarButton('Test connection').click();
    await ui.sidebar
      .locator('#settings-message[data-tone="ok"]', {hasText: 'Connected'})
      .waitFor();
    await ui.menu('Offer Desk', 'Refresh', 'Refresh everything');
    await ui.openSheet('Offers');
    await ui.openMenu('Offer Desk', 'Push');
    await save('playground-overview.png');
    await ui.page.keyboard.press('Escape');
    await ui.dismissToasts();

    const [good, bad] = await editableBudgets(ui);
    await ui.page.getByRole('button', {name: 'Close sidebar'}).click();
    await ui.openSheet('Budgets');
    await ui.type(good.row, 'daily_cap', '120');
    await ui.type(bad.row, 'daily_cap', '10');
    const preview = ui.menu('Offer Desk', 'Push', 'Push budgets (preview)');
    await ui.dialog();
    await save('playground-alert.png');
    await ui.answerDialog('OK');
    await preview;
    await ui.dismissToasts();
    await (await ui.cellAt(bad.row, 'sync_message')).click();
    await save('playground-budgets.png');

    await ui.menu('Offer Desk', 'Open sidebar');
    await ui.sidebarButton('Preview: Push budgets').click();
    await ui.sidebar.locator('#result-problems button').first().waitFor();
    await ui.sidebar
      .locator('#jobs-heading')
      .evaluate(heading => heading.scrollIntoView({block: 'start'}));
    await ui.page.locator('#sidebar-panel').screenshot({
      path: join(IMAGES, 'playground-sidebar.png'),
    });
    console.log('docs/images/playground-sidebar.png');

    // History: push the edits, list the run in the sidebar, and show the sheet itself.
    await ui.page.getByRole('button', {name: 'Close sidebar'}).click();
    await ui.type(bad.row, 'daily_cap', '500');
    await ui.menu('Offer Desk', 'Push', 'Push budgets');
    await ui.dismissToasts();
    await ui.menu('Offer Desk', 'Open sidebar');
    await ui.sidebarButton('Show recent changes').click();
    await ui.sidebar.locator('#history-runs > li').first().waitFor();
    await ui.sidebar
      .locator('#history-heading')
      .evaluate(heading => heading.scrollIntoView({block: 'start'}));
    await ui.page.locator('#sidebar-panel').screenshot({
      path: join(IMAGES, 'playground-history.png'),
    });
    console.log('docs/images/playground-history.png');
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
    await ui.menu('Offer Desk', 'Refresh', 'Refresh offers and budgets');
    await ui.dismissToasts();
    await playground.host.invoke('updateOffer', running[0], {
      status: 'RUNNING',
      offer_stop_reason: '',
    });
    await ui.menu('Offer Desk', 'Refresh', 'Refresh offers and budgets');
    await ui.dismissToasts();
    await ui.openSheet('Alerts');
    await ui.page.locator('#grid').evaluate(grid => grid.scrollTo(0, 0));
    await save('playground-alerts.png');
  } finally {
    await browser.close();
    await playground.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
