import {enumName, makeEnum} from '../enums';
import {Env} from '../env';
import {a1Of, Rect} from './a1';
import {GENERAL_FORMAT, parseEntry, scriptValue} from './cell';
import {FakeDataValidation} from './data-validation';
import {displayValue} from './display';
import type {FakeFilter} from './filter';
import {FakeProtection} from './protection';
import {Cell, clearFormats, FakeSheet, SortKey} from './sheet';

type AttrField =
  | 'format'
  | 'background'
  | 'fontWeight'
  | 'fontColor'
  | 'horizontalAlignment'
  | 'note'
  | 'validation'
  | 'wrapStrategy';

/** A per-cell attribute with getX/getXs/setX/setXs methods: its default and how input is checked. */
interface Attr {
  field: AttrField;
  /** Method-name stem: 'Background' gives getBackground, getBackgrounds, ... */
  name: string;
  fallback: unknown;
  /** The stored form of a value; undefined resets the cell to the default. */
  normalize(env: Env, value: unknown): unknown;
}

const NAMED_COLORS: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  yellow: '#ffff00',
  orange: '#ffa500',
  gray: '#808080',
  grey: '#808080',
};

function color(env: Env, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = String(value).trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  if (short)
    return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  return NAMED_COLORS[text] ?? env.fail('Invalid argument: color');
}

function optionalText(value: unknown): string | undefined {
  return value === null || value === undefined || value === ''
    ? undefined
    : String(value);
}

/** SpreadsheetApp.WrapStrategy: how text longer than its cell shows; OVERFLOW by default. */
export const WrapStrategy = makeEnum(['WRAP', 'OVERFLOW', 'CLIP'] as const);

const ATTRS = {
  wrapStrategy: {
    field: 'wrapStrategy',
    name: 'WrapStrategy',
    fallback: WrapStrategy.OVERFLOW,
    normalize(env, v) {
      const name = enumName(WrapStrategy, v);
      if (name === undefined) return env.fail('Invalid argument: strategy');
      return name === 'OVERFLOW' ? undefined : WrapStrategy[name];
    },
  },
  numberFormat: {
    field: 'format',
    name: 'NumberFormat',
    fallback: GENERAL_FORMAT,
    normalize: (_e, v) => optionalText(v),
  },
  background: {
    field: 'background',
    name: 'Background',
    fallback: '#ffffff',
    normalize: color,
  },
  fontColor: {
    field: 'fontColor',
    name: 'FontColor',
    fallback: '#000000',
    normalize: color,
  },
  fontWeight: {
    field: 'fontWeight',
    name: 'FontWeight',
    fallback: 'normal',
    normalize(env, v) {
      if (v === null || v === 'normal') return undefined;
      return v === 'bold' ? v : env.fail('Invalid argument: fontWeight');
    },
  },
  horizontalAlignment: {
    field: 'horizontalAlignment',
    name: 'HorizontalAlignment',
    fallback: 'general',
    normalize(env, v) {
      if (v === null || v === 'general') return undefined;
      return ['left', 'center', 'right', 'normal'].includes(
        String(v).toLowerCase(),
      )
        ? String(v).toLowerCase()
        : env.fail('Invalid argument: alignment');
    },
  },
  note: {
    field: 'note',
    name: 'Note',
    fallback: '',
    normalize: (_e, v) => optionalText(v),
  },
  validation: {
    field: 'validation',
    name: 'DataValidation',
    fallback: null,
    normalize(env, v) {
      if (v === null) return undefined;
      return v instanceof FakeDataValidation
        ? v
        : env.fail('Invalid argument: rule');
    },
  },
} satisfies Record<string, Attr>;

/** A block of cells of one sheet. Geometry getters are free (no backend call in Apps Script). */
export class FakeRange {
  private readonly env: Env;

  constructor(
    private readonly sheet: FakeSheet,
    private readonly rect: Rect,
  ) {
    this.env = sheet.env;
  }

  // ---- values ----

  getValues(): unknown[][] {
    this.read('Range.getValues');
    const tz = this.sheet.host.timeZone;
    return this.seen(
      this.env.realm.grid(
        this.map(c =>
          scriptValue(this.env.realm, c?.content, c?.format, tz, this.sheet),
        ),
      ),
    );
  }

  getValue(): unknown {
    this.sheet.call('Range.getValue', 1);
    const c = this.topLeft();
    return this.seen(
      scriptValue(
        this.env.realm,
        c?.content,
        c?.format,
        this.sheet.host.timeZone,
        this.sheet,
      ),
    );
  }

  getDisplayValues(): string[][] {
    this.read('Range.getDisplayValues');
    return this.seen(
      this.env.realm.grid(
        this.map(c => displayValue(c?.content, c?.format, this.sheet)),
      ),
    );
  }

  getDisplayValue(): string {
    this.sheet.call('Range.getDisplayValue', 1);
    const c = this.topLeft();
    return this.seen(displayValue(c?.content, c?.format, this.sheet));
  }

  getFormulas(): string[][] {
    this.read('Range.getFormulas');
    return this.seen(
      this.env.realm.grid(
        this.map(c =>
          c?.content?.kind === 'formula' ? c.content.formula : '',
        ),
      ),
    );
  }

  getFormula(): string {
    this.sheet.call('Range.getFormula', 1);
    const content = this.topLeft()?.content;
    return this.seen(content?.kind === 'formula' ? content.formula : '');
  }

  setValues(values: unknown[][]): FakeRange {
    this.checkGrid(values, 'setValues');
    this.write('Range.setValues');
    this.sheet.carried(values);
    this.sheet.writeEntries(this.rect, values, (v, cell) =>
      this.sheet.scriptEntry(v, cell),
    );
    return this;
  }

  /** Sets every cell of the range to `value`. */
  setValue(value: unknown): FakeRange {
    this.fill('Range.setValue');
    this.sheet.carried([[value]]);
    this.sheet.writeEntries(this.rect, this.filled(value), (v, cell) =>
      this.sheet.scriptEntry(v, cell),
    );
    return this;
  }

  /** A formula is a formula whatever the number format (unlike setValue on a '@' cell). */
  setFormula(formula: string): FakeRange {
    this.fill('Range.setFormula');
    this.sheet.carried([[formula]]);
    this.sheet.writeEntries(this.rect, this.filled(formula), v =>
      parseEntry(String(v), undefined),
    );
    return this;
  }

  setFormulas(formulas: string[][]): FakeRange {
    this.checkGrid(formulas, 'setFormulas');
    this.write('Range.setFormulas');
    this.sheet.carried(formulas);
    this.sheet.writeEntries(this.rect, formulas, v =>
      parseEntry(String(v ?? ''), undefined),
    );
    return this;
  }

  isBlank(): boolean {
    this.read('Range.isBlank');
    return this.map(c => c?.content === undefined).every(row =>
      row.every(Boolean),
    );
  }

  // ---- formats, notes, validation ----

  getNumberFormat(): string {
    return this.getAttr(ATTRS.numberFormat) as string;
  }
  getNumberFormats(): string[][] {
    return this.getAttrs(ATTRS.numberFormat) as string[][];
  }
  setNumberFormat(format: string): FakeRange {
    return this.setAttr(ATTRS.numberFormat, format);
  }
  setNumberFormats(formats: string[][]): FakeRange {
    return this.setAttrs(ATTRS.numberFormat, formats);
  }

  getWrapStrategy(): unknown {
    return this.getAttr(ATTRS.wrapStrategy);
  }
  getWrapStrategies(): unknown[][] {
    return this.getAttrs(ATTRS.wrapStrategy);
  }
  setWrapStrategy(strategy: unknown): FakeRange {
    return this.setAttr(ATTRS.wrapStrategy, strategy);
  }
  setWrapStrategies(strategies: unknown[][]): FakeRange {
    return this.setAttrs(ATTRS.wrapStrategy, strategies);
  }

  getBackground(): string {
    return this.getAttr(ATTRS.background) as string;
  }
  getBackgrounds(): string[][] {
    return this.getAttrs(ATTRS.background) as string[][];
  }
  setBackground(color: string | null): FakeRange {
    return this.setAttr(ATTRS.background, color);
  }
  setBackgrounds(colors: string[][]): FakeRange {
    return this.setAttrs(ATTRS.background, colors);
  }
  /** RangeList.setBackground on this range: stored and counted, priced by the list's call. */
  backgroundOfList(color: string | null): void {
    const stored = ATTRS.background.normalize(this.env, color);
    this.env.meter.add('SpreadsheetApp.cellsWritten', this.cells());
    this.eachCell(cell => store(cell, ATTRS.background.field, stored));
  }

  getFontColor(): string {
    return this.getAttr(ATTRS.fontColor) as string;
  }
  getFontColors(): string[][] {
    return this.getAttrs(ATTRS.fontColor) as string[][];
  }
  setFontColor(color: string | null): FakeRange {
    return this.setAttr(ATTRS.fontColor, color);
  }
  setFontColors(colors: string[][]): FakeRange {
    return this.setAttrs(ATTRS.fontColor, colors);
  }

  getFontWeight(): string {
    return this.getAttr(ATTRS.fontWeight) as string;
  }
  getFontWeights(): string[][] {
    return this.getAttrs(ATTRS.fontWeight) as string[][];
  }
  setFontWeight(weight: string | null): FakeRange {
    return this.setAttr(ATTRS.fontWeight, weight);
  }
  setFontWeights(weights: string[][]): FakeRange {
    return this.setAttrs(ATTRS.fontWeight, weights);
  }

  getHorizontalAlignment(): string {
    return this.getAttr(ATTRS.horizontalAlignment) as string;
  }
  getHorizontalAlignments(): string[][] {
    return this.getAttrs(ATTRS.horizontalAlignment) as string[][];
  }
  setHorizontalAlignment(a: string | null): FakeRange {
    return this.setAttr(ATTRS.horizontalAlignment, a);
  }
  setHorizontalAlignments(a: string[][]): FakeRange {
    return this.setAttrs(ATTRS.horizontalAlignment, a);
  }

  getNote(): string {
    return this.getAttr(ATTRS.note) as string;
  }
  getNotes(): string[][] {
    return this.getAttrs(ATTRS.note) as string[][];
  }
  setNote(note: string | null): FakeRange {
    return this.setAttr(ATTRS.note, note);
  }
  setNotes(notes: string[][]): FakeRange {
    return this.setAttrs(ATTRS.note, notes);
  }
  clearNote(): FakeRange {
    return this.setAttr(ATTRS.note, null);
  }

  getDataValidation(): FakeDataValidation | null {
    return this.getAttr(ATTRS.validation) as FakeDataValidation | null;
  }
  getDataValidations(): (FakeDataValidation | null)[][] {
    return this.getAttrs(ATTRS.validation) as (FakeDataValidation | null)[][];
  }
  setDataValidation(rule: FakeDataValidation | null): FakeRange {
    return this.setAttr(ATTRS.validation, rule);
  }
  setDataValidations(rules: (FakeDataValidation | null)[][]): FakeRange {
    return this.setAttrs(ATTRS.validation, rules);
  }
  clearDataValidations(): FakeRange {
    return this.setAttr(ATTRS.validation, null);
  }

  /** Contents and formats; with options, only the parts asked for. */
  clear(options?: {
    contentsOnly?: boolean;
    formatOnly?: boolean;
    validationsOnly?: boolean;
    commentsOnly?: boolean;
  }): FakeRange {
    this.fill('Range.clear');
    this.sheet.checkEditable(this.rect);
    const only =
      options &&
      (options.contentsOnly ||
        options.formatOnly ||
        options.validationsOnly ||
        options.commentsOnly);
    this.eachCell(cell => {
      if (!only || options.contentsOnly) this.clearCell(cell);
      if (!only || options.formatOnly) clearFormats(cell);
      if (options?.validationsOnly) delete cell.validation;
      if (options?.commentsOnly) delete cell.note;
    });
    return this;
  }

  clearContent(): FakeRange {
    this.fill('Range.clearContent');
    this.sheet.checkEditable(this.rect);
    this.eachCell(cell => this.clearCell(cell));
    return this;
  }

  clearFormat(): FakeRange {
    this.fill('Range.clearFormat');
    this.eachCell(clearFormats);
    return this;
  }

  /**
   * sort(sortSpecObj): a column number, {column, ascending}, or an array of those; columns are
   * the sheet's, and must lie within the range.
   */
  sort(sortSpecObj: unknown): FakeRange {
    const specs = Array.isArray(sortSpecObj) ? sortSpecObj : [sortSpecObj];
    const keys = specs.map((spec: unknown): SortKey => {
      const {column, ascending = true} =
        typeof spec === 'number'
          ? {column: spec}
          : ((spec ?? {}) as {column?: unknown; ascending?: unknown});
      if (
        typeof column !== 'number' ||
        !this.covers(this.rect.row, column) ||
        typeof ascending !== 'boolean'
      ) {
        return this.env.fail('Invalid argument: sortSpecObj');
      }
      return {column, ascending};
    });
    if (keys.length === 0) this.env.fail('Invalid argument: sortSpecObj');
    this.sheet.call('Range.sort');
    this.sheet.sortRows(this.rect, keys);
    return this;
  }

  // ---- geometry and navigation ----

  getRow(): number {
    return this.rect.row;
  }
  getRowIndex(): number {
    return this.rect.row;
  }
  getColumn(): number {
    return this.rect.column;
  }
  getColumnIndex(): number {
    return this.rect.column;
  }
  getNumRows(): number {
    return this.rect.numRows;
  }
  getNumColumns(): number {
    return this.rect.numColumns;
  }
  getLastRow(): number {
    return this.rect.row + this.rect.numRows - 1;
  }
  getLastColumn(): number {
    return this.rect.column + this.rect.numColumns - 1;
  }
  getA1Notation(): string {
    return a1Of(this.rect);
  }
  getSheet(): FakeSheet {
    return this.sheet;
  }
  getGridId(): number {
    return this.sheet.getSheetId();
  }

  offset(
    rowOffset: number,
    columnOffset: number,
    numRows?: number,
    numColumns?: number,
  ): FakeRange {
    this.sheet.call('Range.offset');
    const rect = this.sheet.rectFromArgs(
      [
        this.rect.row + rowOffset,
        this.rect.column + columnOffset,
        numRows ?? this.rect.numRows,
        numColumns ?? this.rect.numColumns,
      ],
      'Range.offset',
    );
    return new FakeRange(this.sheet, rect);
  }

  getCell(row: number, column: number): FakeRange {
    this.sheet.call('Range.getCell');
    if (
      row < 1 ||
      column < 1 ||
      row > this.rect.numRows ||
      column > this.rect.numColumns
    ) {
      this.env.fail(
        'The coordinates of the range are outside the dimensions of the sheet.',
      );
    }
    return new FakeRange(this.sheet, {
      row: this.rect.row + row - 1,
      column: this.rect.column + column - 1,
      numRows: 1,
      numColumns: 1,
    });
  }

  activate(): FakeRange {
    this.sheet.call('Range.activate');
    this.sheet.host.select(this.sheet, this.rect);
    return this;
  }

  protect(): FakeProtection {
    this.sheet.call('Range.protect');
    return this.sheet.addProtection('RANGE', this);
  }

  /** A filter over the block, its first row the headers; a sheet holds one at most. */
  createFilter(): FakeFilter {
    this.sheet.call('Range.createFilter');
    return this.sheet.addFilter(this);
  }

  /** The block (1-based). Not an Apps Script method: no call. */
  rectangle(): Rect {
    return {...this.rect};
  }

  /** Whether the block shares a cell with `other`. Not an Apps Script method: no call. */
  overlaps(other: Rect): boolean {
    const r = this.rect;
    return (
      other.row < r.row + r.numRows &&
      r.row < other.row + other.numRows &&
      other.column < r.column + r.numColumns &&
      r.column < other.column + other.numColumns
    );
  }

  /** Whether the block holds every cell of `other`. Not an Apps Script method: no call. */
  contains(other: Rect): boolean {
    return (
      this.covers(other.row, other.column) &&
      this.covers(
        other.row + other.numRows - 1,
        other.column + other.numColumns - 1,
      )
    );
  }

  /** Whether the block holds that cell (1-based). Not an Apps Script method: no call. */
  covers(row: number, column: number): boolean {
    const r = this.rect;
    return (
      row >= r.row &&
      row < r.row + r.numRows &&
      column >= r.column &&
      column < r.column + r.numColumns
    );
  }

  toString(): string {
    return 'Range';
  }

  // ---- private ----

  private cells(): number {
    return this.rect.numRows * this.rect.numColumns;
  }

  private read(key: string): void {
    this.sheet.call(key, this.cells());
    this.env.meter.add('SpreadsheetApp.cellsRead', this.cells());
  }

  /** What a read of values answers; the document hears of the read once it is taken. */
  private seen<T>(answer: T): T {
    this.sheet.host.valuesRead(this.sheet);
    return answer;
  }

  private write(key: string): void {
    this.sheet.call(key, this.cells());
    this.env.meter.add('SpreadsheetApp.cellsWritten', this.cells());
  }

  /**
   * One value (or none: a clear) for every cell of the range: the call carries that one
   * value whatever the range's size, so it is priced as one cell.
   */
  private fill(key: string): void {
    this.sheet.call(key, 1);
    this.env.meter.add('SpreadsheetApp.cellsWritten', this.cells());
  }

  /** A queued clear, undone if the execution is killed before the queue is sent. */
  private clearCell(cell: Cell): void {
    this.env.queueCellWrite(cell);
    delete cell.content;
  }

  private topLeft(): Cell | undefined {
    return this.sheet.cellAt(this.rect.row, this.rect.column);
  }

  private map<T>(fn: (cell: Cell | undefined) => T): T[][] {
    const out: T[][] = [];
    for (let i = 0; i < this.rect.numRows; i++) {
      const row: T[] = [];
      for (let j = 0; j < this.rect.numColumns; j++) {
        row.push(
          fn(this.sheet.cellAt(this.rect.row + i, this.rect.column + j)),
        );
      }
      out.push(row);
    }
    return out;
  }

  private eachCell(fn: (cell: Cell, i: number, j: number) => void): void {
    for (let i = 0; i < this.rect.numRows; i++) {
      for (let j = 0; j < this.rect.numColumns; j++) {
        fn(this.sheet.cellFor(this.rect.row + i, this.rect.column + j), i, j);
      }
    }
  }

  private filled<T>(value: T): T[][] {
    return Array.from({length: this.rect.numRows}, () =>
      new Array<T>(this.rect.numColumns).fill(value),
    );
  }

  /** The exact-dimension check of every grid setter, with Apps Script's wording. */
  private checkGrid(
    data: unknown,
    method: string,
  ): asserts data is unknown[][] {
    if (!Array.isArray(data) || !data.every(row => Array.isArray(row))) {
      this.env.fail(
        `The parameters (${Array.isArray(data) ? 'number[]' : typeof data}) don't match the method signature for SpreadsheetApp.Range.${method}.`,
      );
    }
    if (data.length !== this.rect.numRows) {
      this.env.fail(
        `The number of rows in the data does not match the number of rows in the range. The data has ${data.length} but the range has ${this.rect.numRows}.`,
      );
    }
    for (const row of data as unknown[][]) {
      if (row.length !== this.rect.numColumns) {
        this.env.fail(
          `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${this.rect.numColumns}.`,
        );
      }
    }
  }

  private getAttr(attr: Attr): unknown {
    this.sheet.call(`Range.get${attr.name}`, 1);
    return this.topLeft()?.[attr.field] ?? attr.fallback;
  }

  private getAttrs(attr: Attr): unknown[][] {
    this.read(`Range.get${attr.name}s`);
    return this.env.realm.grid(this.map(c => c?.[attr.field] ?? attr.fallback));
  }

  private setAttr(attr: Attr, value: unknown): FakeRange {
    const stored = attr.normalize(this.env, value);
    this.fill(`Range.set${attr.name}`);
    this.eachCell(cell => store(cell, attr.field, stored));
    return this;
  }

  private setAttrs(attr: Attr, values: unknown[][]): FakeRange {
    this.checkGrid(values, `set${attr.name}s`);
    const stored = values.map(row => row.map(v => attr.normalize(this.env, v)));
    this.write(`Range.set${attr.name}s`);
    this.eachCell((cell, i, j) => store(cell, attr.field, stored[i][j]));
    return this;
  }
}

function store(cell: Cell, field: AttrField, value: unknown): void {
  if (value === undefined) delete cell[field];
  else (cell as Record<AttrField, unknown>)[field] = value;
}
