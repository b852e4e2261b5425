import {makeEnum} from '../enums';
import {Env} from '../env';
import {isTimeZone} from '../time-zone';
import {FakeUi, UiLog} from '../ui';
import {parseA1, Rect} from './a1';
import {
  DataValidationCriteria,
  FakeDataValidationBuilder,
} from './data-validation';
import {FakeFilterCriteriaBuilder} from './filter';
import {ProtectionType} from './protection';
import {FakeRange, WrapStrategy} from './range';
import {followStructure, StructureChange} from './references';
import {FakeSheet, SheetHost} from './sheet';

const CELL_LIMIT = 10_000_000;

export interface SpreadsheetOptions {
  id: string;
  name: string;
  timeZone: string;
  /** Sheets the spreadsheet starts with (default: one empty 'Sheet1'). */
  sheetNames: string[];
}

/** A range a script selected, and how many selections were made up to it. */
export interface Selection {
  sheet: FakeSheet;
  rect: Rect;
  count: number;
  /** A person's selection (selectByPerson), which a viewer already shows: no script's. */
  byPerson?: boolean;
}

/** The one spreadsheet the add-on is bound to. */
export class FakeSpreadsheet implements SheetHost {
  private readonly sheets: FakeSheet[] = [];
  private active: FakeSheet;
  private selected: Selection | null = null;
  private nextSheetId = 0;
  timeZone: string;
  private name: string;

  constructor(
    private readonly env: Env,
    private readonly ui: UiLog,
    private readonly id: string,
    options: Omit<SpreadsheetOptions, 'id'>,
    /** Told of every read of values by the script (the runtime's collaborator listens). */
    private readonly onValuesRead: (sheet: FakeSheet) => void = () => {},
  ) {
    this.timeZone = options.timeZone;
    this.name = options.name;
    for (const n of options.sheetNames) this.sheets.push(this.newSheet(n));
    this.active = this.sheets[0];
  }

  getId(): string {
    this.call('Spreadsheet.getId');
    return this.id;
  }

  getName(): string {
    this.call('Spreadsheet.getName');
    return this.name;
  }

  rename(newName: string): void {
    this.call('Spreadsheet.rename');
    this.name = String(newName);
  }

  getUrl(): string {
    this.call('Spreadsheet.getUrl');
    return `https://docs.google.com/spreadsheets/d/${this.id}/edit`;
  }

  getSpreadsheetTimeZone(): string {
    this.call('Spreadsheet.getSpreadsheetTimeZone');
    return this.timeZone;
  }

  setSpreadsheetTimeZone(timezone: string): void {
    this.call('Spreadsheet.setSpreadsheetTimeZone');
    if (!isTimeZone(String(timezone)))
      this.env.fail('Invalid argument: timezone');
    this.timeZone = String(timezone);
  }

  getSpreadsheetLocale(): string {
    this.call('Spreadsheet.getSpreadsheetLocale');
    return 'en_US';
  }

  getSheets(): FakeSheet[] {
    this.call('Spreadsheet.getSheets');
    return this.env.realm.array(this.sheets);
  }

  visibleSheets(): number {
    return this.sheets.filter(sheet => !sheet.isHidden()).length;
  }

  getNumSheets(): number {
    this.call('Spreadsheet.getNumSheets');
    return this.sheets.length;
  }

  getSheetByName(name: string): FakeSheet | null {
    this.call('Spreadsheet.getSheetByName');
    return this.sheet(String(name)) ?? null;
  }

  getActiveSheet(): FakeSheet {
    this.call('Spreadsheet.getActiveSheet');
    return this.active;
  }

  /**
   * The selected range: what was selected last (Range.activate, a person's selection) when it
   * is on the active sheet, else the active sheet's A1, as Sheets answers with no selection.
   */
  getActiveRange(): FakeRange {
    this.call('Spreadsheet.getActiveRange');
    const at = this.selected;
    const rect =
      at && at.sheet === this.active
        ? at.rect
        : {row: 1, column: 1, numRows: 1, numColumns: 1};
    return this.active.getRange(
      rect.row,
      rect.column,
      rect.numRows,
      rect.numColumns,
    );
  }

  setActiveSheet(sheet: FakeSheet): FakeSheet {
    this.call('Spreadsheet.setActiveSheet');
    this.activate(this.own(sheet));
    return sheet;
  }

  /** insertSheet(), insertSheet(name), insertSheet(name, index) or insertSheet(index). */
  insertSheet(nameOrIndex?: string | number, index?: number): FakeSheet {
    this.call('Spreadsheet.insertSheet');
    const name =
      typeof nameOrIndex === 'string' ? nameOrIndex : this.freeName();
    const at =
      typeof nameOrIndex === 'number'
        ? nameOrIndex
        : (index ?? this.sheets.length);
    if (!Number.isInteger(at) || at < 0 || at > this.sheets.length)
      this.env.fail('Invalid argument: sheetIndex');
    this.checkName(name);
    this.checkGrowth(1000 * 26);
    const sheet = this.newSheet(name);
    this.sheets.splice(at, 0, sheet);
    this.active = sheet;
    return sheet;
  }

  deleteSheet(sheet: FakeSheet): void {
    this.call('Spreadsheet.deleteSheet');
    this.own(sheet);
    if (this.sheets.length === 1)
      this.env.fail("You can't remove all the sheets in a document.");
    this.sheets.splice(this.sheets.indexOf(sheet), 1);
    if (this.active === sheet) this.active = this.sheets[0];
  }

  /** An A1 range, on the named sheet or else the active one. */
  getRange(a1Notation: string): FakeRange {
    this.call('Spreadsheet.getRange');
    const sheetName = parseA1(
      String(a1Notation),
      Infinity,
      Infinity,
    )?.sheetName;
    const sheet =
      sheetName === undefined
        ? this.active
        : (this.sheet(sheetName) ?? this.env.fail('Range not found'));
    const bare = String(a1Notation).slice(
      String(a1Notation).lastIndexOf('!') + 1,
    );
    return new FakeRange(
      sheet,
      sheet.rectFromArgs([bare], 'Spreadsheet.getRange'),
    );
  }

  getRangeByName(): null {
    this.call('Spreadsheet.getRangeByName');
    return null;
  }

  toast(msg: string, title = '', timeoutSeconds = 5): void {
    this.call('Spreadsheet.toast');
    this.ui.events.push({
      kind: 'toast',
      message: String(msg),
      title: String(title),
      timeoutSeconds: Number(timeoutSeconds),
      atMs: this.env.clock.now(),
    });
  }

  toString(): string {
    return 'Spreadsheet';
  }

  // ---- SheetHost, and direct access for tests ----

  /** A sheet by name, without a metered call. */
  sheet(name: string): FakeSheet | undefined {
    return this.sheets.find(s => s.title() === name);
  }

  activeSheet(): FakeSheet {
    return this.active;
  }

  /** The sheet a formula names: names are unique regardless of case, and so are references. */
  referencedSheet(name: string): FakeSheet | undefined {
    const lower = name.toLowerCase();
    return this.sheets.find(s => s.title().toLowerCase() === lower);
  }

  valuesRead(sheet: FakeSheet): void {
    this.onValuesRead(sheet);
  }

  structureChanged(changed: FakeSheet, change: StructureChange): void {
    for (const sheet of this.sheets) {
      sheet.rewriteFormulas(formula =>
        followStructure(
          formula,
          ref =>
            (ref.sheet === undefined
              ? sheet
              : this.referencedSheet(ref.sheet)) === changed,
          change,
        ),
      );
    }
  }

  checkGrowth(extraCells: number): void {
    const used = this.sheets.reduce(
      (n, s) => n + s.size().maxRows * s.size().maxColumns,
      0,
    );
    if (used + extraCells > CELL_LIMIT) {
      this.env.fail(
        `This action would increase the number of cells in the workbook above the limit of ${CELL_LIMIT} cells.`,
      );
    }
  }

  checkName(name: string, renaming?: FakeSheet): void {
    if (name.trim() === '') this.env.fail('Invalid argument: sheetName');
    const clash = this.sheets.find(
      s => s !== renaming && s.title().toLowerCase() === name.toLowerCase(),
    );
    if (clash)
      this.env.fail(
        `A sheet with the name "${name}" already exists. Please enter another name.`,
      );
  }

  select(sheet: FakeSheet, rect: Rect): void {
    this.activate(sheet);
    this.selected = {sheet, rect, count: (this.selected?.count ?? 0) + 1};
  }

  /**
   * What a person selected in a viewer: the active range a script then reads while that sheet
   * is the active one (the viewer tells the tab apart), counted as no script's selection (a
   * viewer selects only those anew).
   */
  selectByPerson(sheet: FakeSheet, rect: Rect): void {
    this.selected = {
      sheet,
      rect,
      count: this.selected?.count ?? 0,
      byPerson: true,
    };
  }

  /** The range a script selected last (Range.activate), counted so a viewer sees each anew. */
  selection(): Selection | null {
    return this.selected;
  }

  activate(sheet: FakeSheet): void {
    this.active = sheet;
  }

  indexOf(sheet: FakeSheet): number {
    return this.sheets.indexOf(sheet);
  }

  parent(): FakeSpreadsheet {
    return this;
  }

  private newSheet(name: string): FakeSheet {
    return new FakeSheet(this.env, this, name, this.nextSheetId++);
  }

  private freeName(): string {
    let n = this.sheets.length + 1;
    while (this.sheet(`Sheet${n}`)) n++;
    return `Sheet${n}`;
  }

  private own(sheet: FakeSheet): FakeSheet {
    if (!this.sheets.includes(sheet)) this.env.fail('Invalid argument: sheet');
    return sheet;
  }

  private call(key: string): void {
    this.env.spreadsheet(key);
  }
}

/** The SpreadsheetApp global. */
export class FakeSpreadsheetApp {
  readonly DataValidationCriteria = DataValidationCriteria;
  readonly ProtectionType = ProtectionType;
  readonly WrapStrategy = WrapStrategy;
  readonly Dimension = makeEnum(['COLUMNS', 'ROWS'] as const);

  constructor(
    private readonly env: Env,
    private readonly spreadsheet: FakeSpreadsheet,
    private readonly ui: FakeUi,
  ) {}

  getActive(): FakeSpreadsheet {
    this.env.spreadsheet('SpreadsheetApp.getActive');
    return this.active();
  }

  getActiveSpreadsheet(): FakeSpreadsheet {
    this.env.spreadsheet('SpreadsheetApp.getActiveSpreadsheet');
    return this.active();
  }

  /**
   * Null in a trigger run that Apps Script gives no spreadsheet (Runtime.triggerContext). Typed
   * as never null for the tests, which call it outside any execution, where it never is.
   */
  private active(): FakeSpreadsheet {
    return (
      this.env.inTriggerWithout('spreadsheet') ? null : this.spreadsheet
    ) as FakeSpreadsheet;
  }

  getActiveSheet(): FakeSheet {
    this.env.spreadsheet('SpreadsheetApp.getActiveSheet');
    return this.spreadsheet.activeSheet();
  }

  /** Refused where no editor is open to show it (time-driven triggers). */
  getUi(): FakeUi {
    this.env.spreadsheet('SpreadsheetApp.getUi');
    if (this.env.execution?.kind === 'trigger')
      this.env.fail('Cannot call SpreadsheetApp.getUi() from this context.');
    return this.ui;
  }

  newDataValidation(): FakeDataValidationBuilder {
    this.env.spreadsheet('SpreadsheetApp.newDataValidation');
    return new FakeDataValidationBuilder(this.env);
  }

  newFilterCriteria(): FakeFilterCriteriaBuilder {
    this.env.spreadsheet('SpreadsheetApp.newFilterCriteria');
    return new FakeFilterCriteriaBuilder(this.env);
  }

  /** Writes are applied at once here; flush sends the queued ones (their round trip). */
  flush(): void {
    this.env.spreadsheet('SpreadsheetApp.flush');
  }

  openById(): never {
    return this.env.fail(
      'You do not have permission to call SpreadsheetApp.openById. Required permissions: https://www.googleapis.com/auth/spreadsheets',
    );
  }
}
