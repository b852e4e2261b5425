/**
 * The playground page driven through Playwright as a person uses it: the menu, the grid and
 * its formula bar, the sheet tabs, the sidebar, the dialogs. Shared by the browser test and the
 * screenshots script, so both walk the same tour.
 */
import type {Browser, FrameLocator, Locator, Page} from 'playwright-core';
import {DEMO_ACCOUNTS} from '../emulator';
import type {SheetView, StatusView} from './protocol';
import type {Playground} from './server';

export const VIEWPORT = {width: 1280, height: 800};

/** A sheet's rows as header -> shown text, with their sheet row numbers. */
export interface ShownRow {
  row: number;
  cells: Record<string, string>;
}

export class PlaygroundDriver {
  private constructor(
    readonly page: Page,
    readonly playground: Playground,
  ) {}

  static async open(
    browser: Browser,
    playground: Playground,
  ): Promise<PlaygroundDriver> {
    const page = await browser.newPage({viewport: VIEWPORT});
    const driver = new PlaygroundDriver(page, playground);
    await page.goto(playground.url);
    await driver.sidebar.getByLabel('Base URL').waitFor();
    await driver.settled();
    return driver;
  }

  get sidebar(): FrameLocator {
    return this.page.frameLocator('#sidebar-frame');
  }

  sidebarButton(name: string): Locator {
    return this.sidebar.getByRole('button', {name, exact: true});
  }

  async status(): Promise<StatusView> {
    const response = await fetch(`${this.playground.url}api/status`);
    return (await response.json()) as StatusView;
  }

  /** Waits until the page shows everything the add-on did so far. */
  async settled(): Promise<void> {
    const {revision} = await this.status();
    await this.page.waitForFunction(
      r => Number(document.body.dataset.shownRevision ?? 0) >= r,
      revision,
    );
  }

  /**
   * What `read` answers once it answers `want`, or its last answer after `timeoutMs`: the grid
   * is drawn again after a job (a sheet the job made in the background is shown, then the one
   * the user was on), so a value read at once may come from a grid being redrawn. It waits as
   * long as the browser suites' own condition waits (test/support/browser-timeouts.ts), so a
   * busy machine slows it without failing it.
   */
  async until<T>(
    read: () => Promise<T>,
    want: T,
    timeoutMs = 60_000,
  ): Promise<T> {
    const end = Date.now() + timeoutMs;
    let value = await read();
    while (value !== want && Date.now() < end) {
      await this.page.waitForTimeout(100);
      value = await read();
    }
    return value;
  }

  /** The sheet as the server has it (for finding rows; assertions read the page). */
  async sheet(name: string): Promise<ShownRow[]> {
    const response = await fetch(
      `${this.playground.url}api/sheet?name=${encodeURIComponent(name)}`,
    );
    const view = (await response.json()) as SheetView;
    const headers = view.cells[0].map(c => c.text);
    return view.cells.slice(1, view.lastRow).map((cells, i) => ({
      row: i + 2,
      cells: Object.fromEntries(headers.map((h, j) => [h, cells[j].text])),
    }));
  }

  /** Connects the sidebar with the demo main account's keys. */
  async connect(): Promise<void> {
    const main = DEMO_ACCOUNTS.main;
    await this.sidebar.getByLabel('Base URL').fill(this.playground.baseUrl);
    await this.sidebar.getByLabel('Access key').fill(main.accessKey);
    await this.sidebar.getByLabel('Api key').fill(main.apiKey);
    await this.sidebarButton('Save').click();
    await this.sidebar
      .locator('#settings-message', {hasText: 'Saved.'})
      .waitFor();
  }

  /** Opens Extensions and then each submenu of the path. */
  async openMenu(...path: string[]): Promise<void> {
    await this.page.getByRole('button', {name: 'Extensions'}).click();
    for (const caption of path) {
      await this.page
        .getByRole('menuitem', {name: caption, exact: true})
        .click();
    }
  }

  /** Clicks Extensions > the path, and resolves once the item's function has returned. */
  async menu(...path: string[]): Promise<void> {
    const done = this.page.waitForResponse(r => r.url().endsWith('/api/menu'), {
      timeout: 60000,
    });
    await this.openMenu(...path);
    await done;
    await this.settled();
  }

  /**
   * Clicks a menu of the spreadsheet's own (Edit, Insert, Data) and its item, on the selection,
   * and resolves once the sheet shows the result.
   */
  async sheetMenu(menu: string, item: string): Promise<void> {
    await this.page
      .getByRole('navigation', {name: 'Menu bar'})
      .getByRole('button', {name: menu, exact: true})
      .click();
    await this.sheetAction(
      this.page
        .getByRole('menu', {name: menu})
        .getByRole('menuitem', {name: item, exact: true}),
    );
  }

  /** Right-clicks a cell and clicks an item of its context menu. */
  async contextMenu(row: number, column: number, item: string): Promise<void> {
    await this.cell(row, column).click({button: 'right'});
    await this.sheetAction(
      this.page
        .getByRole('menu', {name: 'Cell actions'})
        .getByRole('menuitem', {name: item, exact: true}),
    );
  }

  private async sheetAction(item: Locator): Promise<void> {
    const done = this.page.waitForResponse(r =>
      /\/api\/(sort|rows|filter)$/.test(r.url()),
    );
    await item.click();
    await done;
    await this.settled();
  }

  /** The alert or prompt showing: its title and text. */
  async dialog(): Promise<{title: string; prompt: string}> {
    const dialog = this.page.locator('dialog[open]');
    await dialog.waitFor();
    return {
      title: (await dialog.locator('#dialog-title').textContent()) ?? '',
      prompt: (await dialog.locator('#dialog-prompt').textContent()) ?? '',
    };
  }

  async answerDialog(button: string, text?: string): Promise<void> {
    const dialog = this.page.locator('dialog[open]');
    await dialog.waitFor();
    if (text !== undefined) await dialog.getByLabel('Your answer').fill(text);
    await dialog.getByRole('button', {name: button, exact: true}).click();
  }

  async openSheet(name: string): Promise<void> {
    await this.page.getByRole('tab', {name, exact: true}).click();
    await this.page.locator(`table.sheet[aria-label="${name}"]`).waitFor();
    await this.settled();
  }

  tabs(): Promise<string[]> {
    return this.page.getByRole('tab').allTextContents();
  }

  /** The column of a header of the sheet shown. */
  async column(header: string): Promise<number> {
    const headers = await this.page
      .locator('table.sheet tbody tr')
      .first()
      .locator('td')
      .allTextContents();
    const at = headers.indexOf(header);
    if (at < 0) throw new Error(`no column ${header} in the sheet shown`);
    return at + 1;
  }

  cell(row: number, column: number): Locator {
    return this.page.locator(
      `table.sheet td[data-row="${row}"][data-column="${column}"]`,
    );
  }

  async cellAt(row: number, header: string): Promise<Locator> {
    return this.cell(row, await this.column(header));
  }

  /** Types into the cell of `row` under `header` through the formula bar, then Enter. */
  async type(row: number, header: string, text: string): Promise<void> {
    await (await this.cellAt(row, header)).click();
    const input = this.page.getByLabel('Cell contents');
    await input.fill(text);
    const done = this.page.waitForResponse(r => r.url().endsWith('/api/cells'));
    await input.press('Enter');
    await done;
    await this.settled();
  }

  /**
   * Picks a Drive file in the panel's stand-in Picker (opening the panel, as a person would):
   * the add-on adds it to Creatives.
   */
  async pickDriveFile(id: string): Promise<void> {
    const file = this.page.locator(`[data-file-id="${id}"]`);
    if (!(await file.isVisible())) {
      await this.page.getByRole('button', {name: 'Drive files'}).click();
      await file.waitFor();
    }
    const done = this.page.waitForResponse(r =>
      r.url().endsWith('/api/drive/pick'),
    );
    await file.getByRole('button', {name: 'Pick (Choose files…)'}).click();
    await done;
    await this.settled();
  }

  /**
   * Dismisses a dialog left open (by a step that failed before answering it): the add-on's
   * execution waits on it, and every later step with it.
   */
  async dismissOpenDialog(): Promise<void> {
    const {dialog} = await this.status();
    if (!dialog) return;
    await fetch(`${this.playground.url}api/dialog`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({
        id: dialog.id,
        button: dialog.buttons[dialog.buttons.length - 1],
        text: '',
      }),
    });
  }

  /** Types a row of cells, header by header. */
  async typeRow(row: number, cells: Record<string, string>): Promise<void> {
    for (const [header, text] of Object.entries(cells))
      await this.type(row, header, text);
  }

  /** The latest toast with this title. */
  toast(title: string): Locator {
    return this.page
      .locator('.toast', {
        has: this.page.locator('.toast-title', {hasText: title}),
      })
      .last();
  }

  /** Closes the toasts still showing (each also goes by itself after its time). */
  async dismissToasts(): Promise<void> {
    await this.page.evaluate(() => {
      for (const close of Array.from(
        document.querySelectorAll<HTMLButtonElement>('.toast button'),
      ))
        close.click();
    });
  }
}
