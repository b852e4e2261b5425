/**
 * One sheet as a grid, with a formula bar to type into cells: click a cell (or move with the
 * arrow keys), type, then Enter (down) or Tab (right). Pasting several lines or tab-separated
 * cells types them from the selected cell on, as Sheets does.
 */
import type {CellEdit, CellView, SheetView} from '../protocol';
import {byId, el} from './dom';

const ROW_PX = 23;
const MIN_COLUMN_PX = 48;
const MAX_COLUMN_PX = 280;
/** Rows looked at to size a column. */
const SIZING_ROWS = 60;

export function columnLetter(column: number): string {
  let n = column;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

interface Position {
  row: number;
  column: number;
}

export class Grid {
  private view: SheetView | null = null;
  private readonly selection = new Map<string, Position>();
  private readonly input = byId<HTMLInputElement>('cell-input');
  private readonly ref = byId('cell-ref');
  private readonly choices = byId<HTMLDataListElement>('cell-choices');
  /** What the selected cell held when it was selected: the input is dirty when it differs. */
  private original = '';

  constructor(
    private readonly container: HTMLElement,
    private readonly onEdit: (
      sheet: string,
      edits: CellEdit[],
    ) => Promise<void>,
  ) {
    container.addEventListener('click', e => this.clicked(e));
    container.addEventListener('keydown', e => this.gridKey(e));
    this.input.addEventListener('keydown', e => this.inputKey(e));
    this.input.addEventListener('paste', e => this.pasted(e));
    // Leaving the formula bar (a click on a tab, the menu, the sidebar) keeps what was typed.
    this.input.addEventListener('change', () => void this.commit());
  }

  get sheetName(): string | null {
    return this.view?.name ?? null;
  }

  show(view: SheetView): void {
    const keepTyping =
      this.view?.name === view.name && this.input.value !== this.original;
    this.view = view;
    const scroll = {
      top: this.container.scrollTop,
      left: this.container.scrollLeft,
    };
    this.container.replaceChildren(this.table(view));
    if (view.rowsNotShown > 0) {
      this.container.append(
        el(
          'p',
          {id: 'grid-more'},
          `${view.rowsNotShown} more rows are not shown here.`,
        ),
      );
    }
    this.container.scrollTop = scroll.top;
    this.container.scrollLeft = scroll.left;
    this.select(this.position(), !keepTyping);
  }

  private position(): Position {
    return this.selection.get(this.view!.name) ?? {row: 1, column: 1};
  }

  private cellAt({row, column}: Position): CellView | undefined {
    return this.view?.cells[row - 1]?.[column - 1];
  }

  private table(view: SheetView): HTMLTableElement {
    const columns = view.cells[0]?.length ?? 0;
    const widths = Array.from({length: columns}, (_, c) => {
      let longest = 0;
      for (const row of view.cells.slice(0, SIZING_ROWS))
        longest = Math.max(longest, row[c].text.length);
      return Math.max(MIN_COLUMN_PX, Math.min(MAX_COLUMN_PX, longest * 7 + 14));
    });
    const colgroup = el('colgroup', {}, el('col', {style: 'width: 46px'}));
    for (const w of widths)
      colgroup.append(el('col', {style: `width: ${w}px`}));
    const letters = el('tr', {}, el('th', {class: 'corner'}));
    for (let c = 1; c <= columns; c++)
      letters.append(el('th', {'data-column': String(c)}, columnLetter(c)));
    const body = el('tbody');
    view.cells.forEach((cells, i) => {
      const row = i + 1;
      const frozen = row <= view.frozenRows;
      const tr = el('tr', {
        class: frozen
          ? `frozen${row === view.frozenRows ? ' last' : ''}`
          : undefined,
      });
      tr.append(el('th', {'data-row': String(row)}, String(row)));
      cells.forEach((cell, j) => tr.append(this.cell(cell, row, j + 1)));
      if (frozen) {
        for (const child of Array.from(tr.children) as HTMLElement[])
          child.style.top = `${row * ROW_PX}px`;
      }
      body.append(tr);
    });
    const width = 46 + widths.reduce((a, b) => a + b, 0);
    return el(
      'table',
      {class: 'sheet', style: `width: ${width}px`, 'aria-label': view.name},
      colgroup,
      el('thead', {}, letters),
      body,
    );
  }

  private cell(cell: CellView, row: number, column: number): HTMLElement {
    const classes = [
      cell.note ? 'has-note' : '',
      cell.choices ? 'has-choices' : '',
    ].filter(Boolean);
    const td = el(
      'td',
      {
        'data-row': String(row),
        'data-column': String(column),
        class: classes.length > 0 ? classes.join(' ') : undefined,
        title: cell.note,
      },
      cell.text,
    );
    if (cell.background) td.style.backgroundColor = cell.background;
    if (cell.color) td.style.color = cell.color;
    if (cell.bold) td.style.fontWeight = '700';
    if (cell.align) td.style.textAlign = cell.align;
    return td;
  }

  private clicked(e: MouseEvent): void {
    const td = (e.target as HTMLElement).closest('td');
    if (!td) return;
    void this.commit();
    this.select(
      {row: Number(td.dataset.row), column: Number(td.dataset.column)},
      true,
    );
    this.input.focus();
    this.input.select();
  }

  /** Selects a cell: its outline, its row and column headers, and the formula bar. */
  private select(at: Position, refill: boolean): void {
    const view = this.view;
    if (!view) return;
    const rows = view.cells.length;
    const columns = view.cells[0]?.length ?? 0;
    const position = {
      row: Math.max(1, Math.min(rows, at.row)),
      column: Math.max(1, Math.min(columns, at.column)),
    };
    this.selection.set(view.name, position);
    for (const old of Array.from(
      this.container.querySelectorAll(
        '.selected, .selected-row, .selected-column',
      ),
    )) {
      old.classList.remove('selected', 'selected-row', 'selected-column');
    }
    const {row, column} = position;
    this.container
      .querySelector(`td[data-row="${row}"][data-column="${column}"]`)
      ?.classList.add('selected');
    this.container
      .querySelector(`tbody th[data-row="${row}"]`)
      ?.classList.add('selected-row');
    this.container
      .querySelector(`thead th[data-column="${column}"]`)
      ?.classList.add('selected-column');
    this.ref.textContent = `${columnLetter(column)}${row}`;
    const cell = this.cellAt(position);
    this.choices.replaceChildren(
      ...(cell?.choices ?? []).map(choice => el('option', {value: choice})),
    );
    if (refill) {
      this.original = cell?.input ?? cell?.text ?? '';
      this.input.value = this.original;
    }
  }

  /** The selected cell's A1 notation. */
  selectedA1(): string | null {
    if (!this.view) return null;
    const {row, column} = this.position();
    return `${columnLetter(column)}${row}`;
  }

  /**
   * Sends what was typed into the selected cell, if anything. The cell is taken now, so the
   * selection may move on at once while the edit is on its way.
   */
  private commit(): Promise<void> {
    const view = this.view;
    if (!view || this.input.value === this.original) return Promise.resolve();
    const text = this.input.value;
    this.original = text;
    return this.onEdit(view.name, [{a1: this.selectedA1()!, text}]);
  }

  private move(rows: number, columns: number): void {
    const {row, column} = this.position();
    this.select({row: row + rows, column: column + columns}, true);
    this.container
      .querySelector('td.selected')
      ?.scrollIntoView({block: 'nearest', inline: 'nearest'});
  }

  private inputKey(e: KeyboardEvent): void {
    if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      const [rows, columns] =
        e.key === 'Enter' ? [e.shiftKey ? -1 : 1, 0] : [0, e.shiftKey ? -1 : 1];
      void this.commit();
      this.move(rows, columns);
      this.input.select();
    } else if (e.key === 'Escape') {
      this.input.value = this.original;
      this.container.focus();
    }
  }

  private gridKey(e: KeyboardEvent): void {
    const arrows: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    if (e.key in arrows) {
      e.preventDefault();
      this.move(...arrows[e.key]);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      this.input.focus();
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      this.input.value = e.key;
      this.input.focus();
    }
  }

  /** Several cells pasted (lines, tab-separated): typed from the selected cell on. */
  private pasted(e: ClipboardEvent): void {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (!/[\t\n]/.test(text) || !this.view) return;
    e.preventDefault();
    const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    const {row, column} = this.position();
    const edits = lines.flatMap((line, i) =>
      line.split('\t').map((value, j) => ({
        a1: `${columnLetter(column + j)}${row + i}`,
        text: value,
      })),
    );
    this.input.value = this.original;
    void this.onEdit(this.view.name, edits);
  }
}
