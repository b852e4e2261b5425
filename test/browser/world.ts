/**
 * The world the browser tests run the sidebar against (loaded by the sidebar host in its worker
 * thread): the demo world, plus what the tests look at or change as a user of the spreadsheet
 * would.
 */
import type {FaultRule} from '../../local/emulator';
import {typeIntoCell} from '../../local/runtime';
import {
  demoWorld,
  DemoWorldOptions,
  World,
} from '../../local/sidebar-host/world';

/** Shared with the sidebar host's demo world. */
export {updateOffer} from '../../local/sidebar-host/world';

export function setup(options: DemoWorldOptions): World {
  return demoWorld(options);
}

function sheetOf(world: World, name: string) {
  const sheet = world.runtime.spreadsheet.sheet(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  return sheet;
}

/** The values of a sheet, header row first. */
export function values(world: World, sheet: string): unknown[][] {
  const s = sheetOf(world, sheet);
  return s.getRange(1, 1, s.getLastRow(), s.getLastColumn()).getValues();
}

/** Types `text` into the cell of `row` under `header`, as a person would: onEdit runs. */
export function type(
  world: World,
  sheet: string,
  row: number,
  header: string,
  text: string,
): void {
  const s = sheetOf(world, sheet);
  const headers = s.getRange(1, 1, 1, s.getLastColumn()).getValues()[0];
  const column = headers.indexOf(header) + 1;
  if (column === 0) throw new Error(`no column ${header} in ${sheet}`);
  const a1 = s.getRange(row, column).getA1Notation();
  typeIntoCell(s, a1, text);
  world.runtime.edited(sheet, a1);
}

/** The requests the API received, oldest first. */
export function requests(world: World) {
  return world.emulator!.requests.map(r => ({
    method: r.method,
    path: r.path,
    body: r.body,
  }));
}

/** The emulator's faults from now on (none: `[]`). */
export function faults(world: World, rules: FaultRule[]): void {
  world.emulator!.faults.configure({rules});
}

export function triggers(world: World) {
  return world.runtime.triggers.records.map(t => ({
    handler: t.handler,
    everyHours: t.everyMs / 3600000,
  }));
}

/** Lets virtual time pass, firing the triggers that fall due. */
export function passHours(world: World, hours: number) {
  const runs = world.runtime.runDueTriggers(
    world.runtime.clock.now() + hours * 3600000,
  );
  return runs.map(r => ({name: r.functionName, error: r.error ?? null}));
}

/** The runtime's clock, ms. */
export function now(world: World): number {
  return world.runtime.clock.now();
}

export function activeSheet(world: World): string {
  return world.runtime.spreadsheet.getActiveSheet().getName();
}

/** Clicks an item of the add-on menu in the spreadsheet, the sidebar staying open. */
export function clickMenu(world: World, caption: string): void {
  if (world.runtime.ui.menus.length === 0) world.runtime.open();
  world.runtime.clickMenu(caption);
}

/** The dialogs the add-on opened (showModalDialog), by title and size. */
export function dialogs(world: World) {
  return world.runtime.ui.events.flatMap(e =>
    e.kind === 'dialog'
      ? [{title: e.title, width: e.width, height: e.height}]
      : [],
  );
}

/** The button the next Ui.alert in the spreadsheet answers with (a person clicking it). */
export function answerNextAlert(world: World, button: 'YES' | 'NO'): void {
  world.runtime.ui.answerNextAlert(button);
}

/** The Yes/No questions the add-on asked in the spreadsheet, oldest first. */
export function questions(world: World) {
  return world.runtime.ui
    .alerts()
    .filter(a => a.buttons === 'YES_NO')
    .map(a => ({title: a.title, prompt: a.prompt, response: a.response}));
}
