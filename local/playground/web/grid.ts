/**
 * One sheet as a grid, with a formula bar to type into cells, keyed as in Sheets: a click
 * selects a cell and the grid keeps the keyboard; arrows, PageUp and PageDown move (with Shift
 * they stretch the selection), typing replaces the cell, Enter or F2 (or a double click) edits
 * it in the formula bar, where Enter (down) or Tab (right) keeps the value and Esc drops it;
 * Delete clears the selected cells; Ctrl+Z and Ctrl+Y undo and redo your own edits. Pasting
 * several lines or tab-separated cells types them from the selected cell on. Columns are as
 * wide as the sheet says (what the add-on set, else Sheets' 100 px), never sized from their
 * content; an edit of a cell under a warning-only protection is asked about first; a value
 * that breaks its cell's data validation shows Sheets' red mark.
 */
import type {
  CellEdit,
  CellView,
  SelectionView,
  SheetView,
  SortRequest,
} from '../protocol';
import {byId, el} from './dom';
import {CellChange, EditHistory, EditStep} from './undo';

const ROW_PX = 23;

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

const a1Of = ({row, column}: Position) => `${columnLetter(column)}${row}`;

function positionOf(a1: string): Position | undefined {
  const m = /^([A-Z]+)(\d+)$/.exec(a1);
  if (!m) return undefined;
  let column = 0;
  for (const ch of m[1]) column = column * 26 + ch.charCodeAt(0) - 64;
  return {row: Number(m[2]), column};
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** A selected range of a sheet, 1-based, as Range.activate selects it. */
export interface SelectedRange {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export class Grid {
  private view: SheetView | null = null;
  /** The active cell of each sheet. */
  private readonly selection = new Map<string, Position>();
  /** Where each sheet was scrolled when another was opened: Sheets keeps each one's place. */
  private readonly scrolls = new Map<string, {top: number; left: number}>();
  /**
   * The far corner of the selected range, the active cell being the other one: stretched with
   * Shift, or a range a script selected (the sidebar's "select this row"). Null: one cell.
   */
  private corner: (Position & {sheet: string}) | null = null;
  private readonly history = new EditHistory();
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
    /** Asked before an edit of protected cells, with their protections' descriptions. */
    private readonly confirmProtected: (
      descriptions: string[],
    ) => Promise<boolean>,
    /**
     * Told the selected range after each selection, so the add-on reads it as Sheets' active
     * range (Clone selected offers… clones the offers of the selected rows).
     */
    private readonly onSelect: (
      sheet: string,
      range: SelectedRange,
    ) => void = () => undefined,
  ) {
    container.addEventListener('click', e => this.clicked(e));
    container.addEventListener('dblclick', e => {
      if ((e.target as HTMLElement).closest('td')) this.startEditing();
    });
    container.addEventListener('keydown', e => this.gridKey(e));
    container.addEventListener('contextmenu', e => this.contextMenu(e));
    this.input.addEventListener('keydown', e => this.inputKey(e));
    this.input.addEventListener('paste', e => this.pasted(e));
    container.addEventListener('paste', e => this.pasted(e));
    // Leaving the formula bar (a click on a tab, the menu, the sidebar) keeps what was typed.
    this.input.addEventListener('change', () => void this.commit());
  }

  get sheetName(): string | null {
    return this.view?.name ?? null;
  }

  show(view: SheetView): void {
    const keepTyping =
      this.view?.name === view.name && this.input.value !== this.original;
    if (this.view) {
      this.scrolls.set(this.view.name, {
        top: this.container.scrollTop,
        left: this.container.scrollLeft,
      });
    }
    const scroll = this.scrolls.get(view.name) ?? {top: 0, left: 0};
    this.view = view;
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

  /** Selects what a script selected: its top-left cell active, the rest highlighted. */
  selectRange(range: SelectionView): void {
    if (this.view?.name !== range.sheet) return;
    this.corner =
      range.numRows > 1 || range.numColumns > 1
        ? {
            sheet: range.sheet,
            row: range.row + range.numRows - 1,
            column: range.column + range.numColumns - 1,
          }
        : null;
    this.select(range, true);
    this.scrollToSelected();
  }

  /**
   * What Data > Sort range sorts, by the active cell's column: the selected range when it spans
   * rows, else every row below the frozen ones down to the last holding content.
   */
  sortTarget(): {
    sheet: string;
    range: SortRequest['range'];
    column: number;
  } | null {
    const view = this.view;
    if (!view) return null;
    const {top, bottom} = this.selectedRect();
    const column = this.position().column;
    if (bottom.row > top.row) {
      return {
        sheet: view.name,
        column,
        range: {
          row: top.row,
          column: top.column,
          numRows: bottom.row - top.row + 1,
          numColumns: bottom.column - top.column + 1,
        },
      };
    }
    const first = view.frozenRows + 1;
    if (view.lastRow < first || view.lastColumn < 1) return null;
    return {
      sheet: view.name,
      column: Math.min(column, view.lastColumn),
      range: {
        row: first,
        column: 1,
        numRows: view.lastRow - first + 1,
        numColumns: view.lastColumn,
      },
    };
  }

  /** The active cell, for Insert row, Delete row and Filter by this value. */
  activeCell(): ({sheet: string} & Position) | null {
    return this.view ? {sheet: this.view.name, ...this.position()} : null;
  }

  /**
   * Rows were sorted, inserted or deleted: the cells of the earlier undo steps moved, and typed
   * back where they were they would land in other rows.
   */
  forgetEdits(): void {
    this.history.forget();
  }

  /** The selected cell's A1 notation. */
  selectedA1(): string | null {
    return this.view ? a1Of(this.position()) : null;
  }

  /** Types `text` into the selected cell, as an edit of the person's (it can be undone). */
  async typeIntoSelected(text: string): Promise<void> {
    const at = this.selectedA1();
    if (!at || !this.view) return;
    await this.edit(this.view.name, [
      {a1: at, before: this.inputAt(at), after: text},
    ]);
  }

  private position(): Position {
    return this.selection.get(this.view!.name) ?? {row: 1, column: 1};
  }

  private cellAt({row, column}: Position): CellView | undefined {
    return this.view?.cells[row - 1]?.[column - 1];
  }

  /** What the formula bar shows for a cell of the sheet shown. */
  private inputAt(a1: string): string {
    const at = positionOf(a1);
    const cell = at && this.cellAt(at);
    return cell?.input ?? cell?.text ?? '';
  }

  /** The selected cells: the active one, or the range between it and the far corner. */
  private selectedRect(): {top: Position; bottom: Position} {
    const active = this.position();
    const corner = this.corner?.sheet === this.view?.name ? this.corner : null;
    const far = corner ?? active;
    return {
      top: {
        row: Math.min(active.row, far.row),
        column: Math.min(active.column, far.column),
      },
      bottom: {
        row: Math.max(active.row, far.row),
        column: Math.max(active.column, far.column),
      },
    };
  }

  private table(view: SheetView): HTMLTableElement {
    const columns = view.cells[0]?.length ?? 0;
    const widths = view.widths;
    const colgroup = el('colgroup', {}, el('col', {style: 'width: 46px'}));
    for (const w of widths)
      colgroup.append(el('col', {style: `width: ${w}px`}));
    const letters = el('tr', {}, el('th', {class: 'corner'}));
    const filtered = new Set(view.filter?.filtered ?? []);
    for (let c = 1; c <= columns; c++)
      letters.append(
        el(
          'th',
          {
            'data-column': String(c),
            class: filtered.has(c) ? 'filtered' : undefined,
            title: filtered.has(c) ? 'Filtered' : undefined,
          },
          columnLetter(c),
        ),
      );
    const hidden = new Set(view.hiddenRows);
    const body = el('tbody');
    view.cells.forEach((cells, i) => {
      const row = i + 1;
      const frozen = row <= view.frozenRows;
      const tr = el('tr', {
        class: frozen
          ? `frozen${row === view.frozenRows ? ' last' : ''}`
          : undefined,
        hidden: hidden.has(row),
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
      cell.invalid !== undefined ? 'invalid' : '',
    ].filter(Boolean);
    const tips = [cell.invalid, cell.note].filter(t => t !== undefined);
    const td = el(
      'td',
      {
        'data-row': String(row),
        'data-column': String(column),
        class: classes.length > 0 ? classes.join(' ') : undefined,
        title: tips.length > 0 ? tips.join('\n\n') : undefined,
      },
      cell.text,
    );
    if (cell.invalid !== undefined)
      td.append(el('span', {class: 'invalid-mark', 'aria-hidden': 'true'}));
    if (cell.background) td.style.backgroundColor = cell.background;
    if (cell.color) td.style.color = cell.color;
    if (cell.bold) td.style.fontWeight = '700';
    if (cell.align) td.style.textAlign = cell.align;
    return td;
  }

  /** Set by the page: opens the grid's context menu at a point of the window. */
  onContextMenu: (x: number, y: number) => void = () => {};

  /** A right click selects the cell, unless it lies in the selected range, and opens the menu. */
  private contextMenu(e: MouseEvent): void {
    const td = (e.target as HTMLElement).closest('td');
    if (!td || !this.view) return;
    e.preventDefault();
    void this.commit();
    const at = {row: Number(td.dataset.row), column: Number(td.dataset.column)};
    const {top, bottom} = this.selectedRect();
    const inside =
      at.row >= top.row &&
      at.row <= bottom.row &&
      at.column >= top.column &&
      at.column <= bottom.column;
    if (!inside) {
      this.corner = null;
      this.select(at, true);
    }
    this.container.focus({preventScroll: true});
    this.onContextMenu(e.clientX, e.clientY);
  }

  /** A click selects the cell (Shift: up to it) and gives the grid the keyboard. */
  private clicked(e: MouseEvent): void {
    const td = (e.target as HTMLElement).closest('td');
    if (!td) return;
    void this.commit();
    const at = {row: Number(td.dataset.row), column: Number(td.dataset.column)};
    if (e.shiftKey && this.view) {
      this.corner = {sheet: this.view.name, ...at};
      this.select(this.position(), true);
    } else {
      this.corner = null;
      this.select(at, true);
    }
    this.container.focus({preventScroll: true});
  }

  /** Selects a cell: its outline, its row and column headers, and the formula bar. */
  private select(at: Position, refill: boolean): void {
    const view = this.view;
    if (!view) return;
    const position = this.clamp(at);
    this.selection.set(view.name, position);
    for (const old of Array.from(
      this.container.querySelectorAll(
        '.selected, .selected-row, .selected-column, .in-range',
      ),
    )) {
      old.classList.remove(
        'selected',
        'selected-row',
        'selected-column',
        'in-range',
      );
    }
    this.highlightRange();
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
    this.ref.textContent = a1Of(position);
    const cell = this.cellAt(position);
    this.choices.replaceChildren(
      ...(cell?.choices ?? []).map(choice => el('option', {value: choice})),
    );
    if (refill) {
      this.original = cell?.input ?? cell?.text ?? '';
      this.input.value = this.original;
    }
    const {top, bottom} = this.selectedRect();
    this.onSelect(view.name, {
      row: top.row,
      column: top.column,
      numRows: bottom.row - top.row + 1,
      numColumns: bottom.column - top.column + 1,
    });
  }

  private clamp(at: Position): Position {
    const rows = this.view?.cells.length ?? 1;
    const columns = this.view?.cells[0]?.length ?? 1;
    return {
      row: Math.max(1, Math.min(rows, at.row)),
      column: Math.max(1, Math.min(columns, at.column)),
    };
  }

  private highlightRange(): void {
    if (!this.corner || this.corner.sheet !== this.view?.name) return;
    const {top, bottom} = this.selectedRect();
    for (let r = top.row; r <= bottom.row; r++) {
      this.container
        .querySelector(`tbody th[data-row="${r}"]`)
        ?.classList.add('selected-row');
      for (let c = top.column; c <= bottom.column; c++) {
        this.container
          .querySelector(`td[data-row="${r}"][data-column="${c}"]`)
          ?.classList.add('in-range');
      }
    }
  }

  /** Whether the edits may go: yes, unless they touch protected cells and the person cancels. */
  private mayEdit(edits: CellEdit[]): Promise<boolean> {
    const descriptions = edits
      .map(e => {
        const at = positionOf(e.a1);
        return at && this.cellAt(at)?.warning;
      })
      .filter(w => w !== undefined);
    return descriptions.length === 0
      ? Promise.resolve(true)
      : this.confirmProtected([...new Set(descriptions)]);
  }

  /**
   * A person's edit of cells of `sheet`: asked about first where protected, then typed and
   * kept for undo. Answers whether it went.
   */
  private async edit(sheet: string, changes: CellChange[]): Promise<boolean> {
    const edits = changes.map(c => ({a1: c.a1, text: c.after}));
    if (!(await this.mayEdit(edits))) return false;
    this.history.record({sheet, changes});
    await this.onEdit(sheet, edits);
    return true;
  }

  /**
   * Sends what was typed into the selected cell, if anything. The cell is taken now, so the
   * selection may move on at once while the edit is on its way.
   */
  private async commit(): Promise<void> {
    const view = this.view;
    if (!view || this.input.value === this.original) return;
    const before = this.original;
    const a1 = this.selectedA1()!;
    const after = this.input.value;
    this.original = after;
    if (await this.edit(view.name, [{a1, before, after}])) return;
    // Cancelled: the cell keeps what it held, and so does the formula bar if still on it.
    if (this.selectedA1() === a1 && this.view === view) {
      this.original = before;
      this.input.value = before;
    }
  }

  /** Delete: the selected cells are cleared, as a person's edit. */
  private clearSelected(): void {
    const view = this.view;
    if (!view) return;
    const {top, bottom} = this.selectedRect();
    const changes: CellChange[] = [];
    for (let row = top.row; row <= bottom.row; row++) {
      for (let column = top.column; column <= bottom.column; column++) {
        const a1 = a1Of({row, column});
        const before = this.inputAt(a1);
        if (before !== '') changes.push({a1, before, after: ''});
      }
    }
    if (changes.length > 0) void this.edit(view.name, changes);
  }

  /** Ctrl+Z and Ctrl+Y: the cells of the step typed back, and selected where they are shown. */
  private replay(step: EditStep | undefined, to: 'before' | 'after'): void {
    if (!step) return;
    const first = positionOf(step.changes[0].a1);
    if (first && this.view?.name === step.sheet) {
      this.corner = null;
      this.select(first, true);
      this.scrollToSelected();
    }
    void this.onEdit(
      step.sheet,
      step.changes.map(c => ({a1: c.a1, text: c[to]})),
    );
  }

  /** Moves the active cell; with `stretch`, the far corner moves and the active cell stays. */
  private move(rows: number, columns: number, stretch = false): void {
    const view = this.view;
    if (!view) return;
    if (stretch) {
      const from =
        this.corner?.sheet === view.name ? this.corner : this.position();
      const to = this.clamp({
        row: from.row + rows,
        column: from.column + columns,
      });
      this.corner = {sheet: view.name, ...to};
      this.select(this.position(), true);
      this.scrollTo(to);
      return;
    }
    const {row, column} = this.position();
    this.corner = null;
    this.select({row: row + rows, column: column + columns}, true);
    this.scrollToSelected();
  }

  private scrollToSelected(): void {
    this.scrollTo(this.position());
  }

  private scrollTo({row, column}: Position): void {
    this.container
      .querySelector(`td[data-row="${row}"][data-column="${column}"]`)
      ?.scrollIntoView({block: 'nearest', inline: 'nearest'});
  }

  /** Rows PageUp and PageDown move: a screenful, less the header row. */
  private pageRows(): number {
    return Math.max(1, Math.floor(this.container.clientHeight / ROW_PX) - 2);
  }

  /** Enter, F2 or a double click: the formula bar edits the cell, caret at the end. */
  private startEditing(): void {
    this.input.focus();
    const end = this.input.value.length;
    this.input.setSelectionRange(end, end);
  }

  private inputKey(e: KeyboardEvent): void {
    if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      const [rows, columns] =
        e.key === 'Enter' ? [e.shiftKey ? -1 : 1, 0] : [0, e.shiftKey ? -1 : 1];
      void this.commit();
      this.move(rows, columns);
      this.container.focus({preventScroll: true});
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.input.value = this.original;
      this.container.focus({preventScroll: true});
    }
  }

  private gridKey(e: KeyboardEvent): void {
    const command = e.ctrlKey || e.metaKey;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let handled = true;
    if (e.key in ARROWS && !command) {
      const [rows, columns] = ARROWS[e.key];
      this.move(rows, columns, e.shiftKey);
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      const rows = this.pageRows() * (e.key === 'PageDown' ? 1 : -1);
      this.move(rows, 0, e.shiftKey);
    } else if (e.key === 'Tab') {
      this.move(0, e.shiftKey ? -1 : 1);
    } else if (e.key === 'Enter' || e.key === 'F2') {
      this.startEditing();
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      this.clearSelected();
    } else if (command && key === 'z' && !e.shiftKey) {
      this.replay(this.history.undo(), 'before');
    } else if (command && (key === 'y' || (key === 'z' && e.shiftKey))) {
      this.replay(this.history.redo(), 'after');
    } else if (e.key.length === 1 && !command && !e.altKey) {
      this.input.value = e.key;
      this.input.focus();
    } else {
      handled = false;
    }
    if (handled) e.preventDefault();
  }

  /** Several cells pasted (lines, tab-separated): typed from the selected cell on. */
  private pasted(e: ClipboardEvent): void {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    const intoGrid = e.currentTarget === this.container;
    if ((!intoGrid && !/[\t\n]/.test(text)) || !this.view) return;
    e.preventDefault();
    const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    const {row, column} = this.position();
    const changes = lines.flatMap((line, i) =>
      line.split('\t').map((value, j) => {
        const a1 = a1Of({row: row + i, column: column + j});
        return {a1, before: this.inputAt(a1), after: value};
      }),
    );
    this.input.value = this.original;
    void this.edit(this.view.name, changes);
  }
}
