/**
 * The spreadsheet's own menus a newcomer needs to try what the add-on promises about sorted and
 * changed sheets: Edit > Delete row, Insert > Row above / Row below, Data > Sort range and
 * Filter by this value / Remove filter, and the same items on a right click in the grid. Each
 * goes to the runtime as a person's action in Sheets does (Range.sort, Sheet.insertRowBefore /
 * insertRowAfter / deleteRow, Range.createFilter and Filter.setColumnFilterCriteria); the
 * add-on finds its rows by id whatever their order, and reads the rows a filter hides.
 */
import type {MenuEntryView, RowChange} from '../protocol';
import {post} from './api';
import {closeMenus, menuEntry, submenu} from './menu';
import {el} from './dom';
import type {Grid} from './grid';

const SORT_UP = 'Sort range A → Z';
const SORT_DOWN = 'Sort range Z → A';
const ROW_ABOVE = 'Insert 1 row above';
const ROW_BELOW = 'Insert 1 row below';
const DELETE_ROW = 'Delete row';
const FILTER = 'Filter by this value';
const UNFILTER = 'Remove filter';

const item = (caption: string): MenuEntryView => ({kind: 'item', caption});

const MENUS: Record<string, MenuEntryView[]> = {
  Edit: [item(DELETE_ROW)],
  Insert: [item(ROW_ABOVE), item(ROW_BELOW)],
  Data: [
    item(SORT_UP),
    item(SORT_DOWN),
    {kind: 'separator'},
    item(FILTER),
    item(UNFILTER),
  ],
};

const CONTEXT: MenuEntryView[] = [
  item(ROW_ABOVE),
  item(ROW_BELOW),
  item(DELETE_ROW),
  {kind: 'separator'},
  item(SORT_UP),
  item(SORT_DOWN),
  item(FILTER),
];

const ROW_OPS: Record<string, RowChange['op']> = {
  [ROW_ABOVE]: 'insertAbove',
  [ROW_BELOW]: 'insertBelow',
  [DELETE_ROW]: 'delete',
};

/**
 * Turns the menu bar's Edit, Insert and Data into menus, and gives the grid its context menu.
 * `done` shows the sheet again; `failed` tells why an action did not happen.
 */
export function sheetMenus(
  bar: HTMLElement,
  grid: Grid,
  done: () => Promise<void>,
  failed: (what: string, e: unknown) => void,
): void {
  const context = el('div', {
    role: 'menu',
    'aria-label': 'Cell actions',
    id: 'context-menu',
    hidden: true,
  });
  // An item stops its click there: the menu closes itself when one runs.
  const hide = () => {
    context.hidden = true;
  };
  const run = (caption: string) => {
    hide();
    void act(grid, caption).then(
      () => done(),
      e => failed(caption, e),
    );
  };
  for (const span of Array.from(bar.querySelectorAll('span'))) {
    const entries = MENUS[span.textContent ?? ''];
    if (entries)
      span.replaceWith(
        submenu(span.textContent!, entries, run, 'menu-root sheet-menu'),
      );
  }
  for (const entry of CONTEXT) context.append(menuEntry(entry, run));
  document.body.append(context);
  grid.onContextMenu = (x, y) => {
    closeMenus();
    context.style.left = `${x}px`;
    context.style.top = `${y}px`;
    context.hidden = false;
  };
  document.addEventListener('click', hide);
  document.addEventListener('keydown', e => {
    if (e.key === 'Escape') hide();
  });
}

async function act(grid: Grid, caption: string): Promise<void> {
  const op = ROW_OPS[caption];
  const at = grid.activeCell();
  if (!at) return;
  if (caption === FILTER || caption === UNFILTER) {
    await post('/api/filter', {
      sheet: at.sheet,
      action:
        caption === FILTER
          ? {op: 'byValue', row: at.row, column: at.column}
          : {op: 'remove'},
    });
    return;
  }
  if (op) {
    await post('/api/rows', {sheet: at.sheet, action: {op, row: at.row}});
  } else {
    const target = grid.sortTarget();
    if (!target) throw new Error('There are no rows below the header to sort.');
    await post('/api/sort', {
      sheet: target.sheet,
      action: {
        range: target.range,
        column: target.column,
        ascending: caption === SORT_UP,
      },
    });
  }
  grid.forgetEdits();
}
