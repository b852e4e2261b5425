/**
 * One sheet as a grid, with a formula bar to type into cells: click a cell (or move with the
 * arrow keys), type, then Enter (down) or Tab (right). Pasting several lines or tab-separated
 * cells types them from the selected cell on, as Sheets does. Columns are as wide as the sheet
 * says (what the add-on set, else Sheets' 100 px), never sized from their content; an edit of
 * a cell under a warning-only protection is asked about first; a value that breaks its cell's
 * data validation shows Sheets' red mark.
 */
import type {CellEdit, CellView, SelectionView, SheetView} from '../protocol';
import {byId, el} from './dom';

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
    /** Asked before an edit of protected cells, with their protections' descriptions. */
    private readonly confirmProtected: (
      descriptions: string[],
    ) => Promise<boolean>,
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

  /** A range a script selected (the sidebar's "select this row"): shown until a person moves. */
  private range: SelectionView | null = null;

  /** Selects what a script selected: its top-left cell, the rest highlighted. */
  selectRange(range: SelectionView): void {
    if (this.view?.name !== range.sheet) return;
    this.range = range;
    this.select(range, true);
    this.container
      .querySelector('td.selected')
      ?.scrollIntoView({block: 'nearest', inline: 'nearest'});
  }

  private position(): Position {
    return this.selection.get(this.view!.name) ?? {row: 1, column: 1};
  }

  private cellAt({row, column}: Position): CellView | undefined {
    return this.view?.cells[row - 1]?.[column - 1];
  }

  private table(view: SheetView): HTMLTableElement {
    const columns = view.cells[0]?.length ?? 0;
    const widths = view.widths;
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

  private clicked(e: MouseEvent): void {
    const td = (e.target as HTMLElement).closest('td');
    if (!td) return;
    void this.commit();
    this.range = null;
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

  private highlightRange(): void {
    const range = this.range;
    if (!range || range.sheet !== this.view?.name) return;
    for (let r = range.row; r < range.row + range.numRows; r++) {
      this.container
        .querySelector(`tbody th[data-row="${r}"]`)
        ?.classList.add('selected-row');
      for (let c = range.column; c < range.column + range.numColumns; c++) {
        this.container
          .querySelector(`td[data-row="${r}"][data-column="${c}"]`)
          ?.classList.add('in-range');
      }
    }
  }

  /** Whether the edits may go: yes, unless they touch protected cells and the person cancels. */
  private mayEdit(edits: CellEdit[]): Promise<boolean> {
    const descriptions = edits
      .map(e => this.cellAtA1(e.a1)?.warning)
      .filter(w => w !== undefined);
    return descriptions.length === 0
      ? Promise.resolve(true)
      : this.confirmProtected([...new Set(descriptions)]);
  }

  private cellAtA1(a1: string): CellView | undefined {
    const m = /^([A-Z]+)(\d+)$/.exec(a1);
    if (!m) return undefined;
    let column = 0;
    for (const ch of m[1]) column = column * 26 + ch.charCodeAt(0) - 64;
    return this.cellAt({row: Number(m[2]), column});
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
  private async commit(): Promise<void> {
    const view = this.view;
    if (!view || this.input.value === this.original) return;
    const before = this.original;
    const text = this.input.value;
    this.original = text;
    const edits = [{a1: this.selectedA1()!, text}];
    if (await this.mayEdit(edits)) return this.onEdit(view.name, edits);
    // Cancelled: the cell keeps what it held, and so does the formula bar if still on it.
    if (this.selectedA1() === edits[0].a1 && this.view === view) {
      this.original = before;
      this.input.value = before;
    }
  }

  private move(rows: number, columns: number): void {
    const {row, column} = this.position();
    this.range = null;
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
    const sheet = this.view.name;
    void this.mayEdit(edits).then(ok =>
      ok ? this.onEdit(sheet, edits) : undefined,
    );
  }
}
