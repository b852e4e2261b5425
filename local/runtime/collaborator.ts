import {Env} from './env';
import {FakeSheet} from './spreadsheet/sheet';
import {FakeSpreadsheet} from './spreadsheet/spreadsheet';
import {typeIntoCell} from './spreadsheet/typing';

/**
 * Another editor of the spreadsheet. The document lock stops other jobs, not people: someone
 * sorts a sheet, inserts or deletes a row, or types a value while a job is sending. Tests
 * schedule such acts at a moment of the add-on's run (during its nth fetch, right after it read
 * a sheet) or perform them at once. Every act runs as a person in the Sheets UI (Env.asPerson):
 * not counted, not priced, not part of the script's write queue (a killed execution does not
 * undo it), on the sheet as it is stored now.
 */

/** What a collaborator does; `ss` is the document, `collaborator` offers the usual acts. */
export type CollaboratorAction = (
  ss: FakeSpreadsheet,
  collaborator: Collaborator,
) => void;

/** A sheet by name, or the sheet itself. */
export type SheetRef = string | FakeSheet;

export interface SortRowsSpec {
  /** A header of row 1, or a column number (1-based). */
  column: string | number;
  /** Default true (A to Z). */
  ascending?: boolean;
}

interface OnFetch {
  /** The UrlFetchApp call, counted since the runtime started, before whose answer it runs. */
  call: number;
  action: CollaboratorAction;
}

interface OnRead {
  sheet: string;
  action: CollaboratorAction;
}

export class Collaborator {
  private fetchCalls = 0;
  private readonly onFetch: OnFetch[] = [];
  private readonly onRead: OnRead[] = [];
  private readonly onAlert: Array<{action: CollaboratorAction}> = [];
  /** An action that threw during an execution: the runtime reports it when the execution ends. */
  private failure: unknown;

  constructor(
    private readonly env: Env,
    private readonly spreadsheet: FakeSpreadsheet,
  ) {}

  /**
   * Runs `action` once, just before the add-on's `nth` UrlFetchApp call from now (fetch or
   * fetchAll; 1 is the next) is answered: its requests have reached the server, the job has
   * not seen the answer yet.
   */
  duringFetch(nth: number, action: CollaboratorAction): void {
    if (!Number.isInteger(nth) || nth < 1)
      throw new Error(`duringFetch: nth counts from 1, not ${nth}`);
    this.onFetch.push({call: this.fetchCalls + nth, action});
  }

  /**
   * Runs `action` once, right after the add-on's next read of values of `sheetName`
   * (getValue(s), getDisplayValue(s), getFormula(s)) in an execution.
   */
  afterRead(sheetName: string, action: CollaboratorAction): void {
    this.onRead.push({sheet: sheetName, action});
  }

  /**
   * Runs `action` once while the add-on's next Ui.alert is open: the person asked has not
   * answered yet, and another editor works on (a question waits as long as the person takes).
   */
  duringAlert(action: CollaboratorAction): void {
    this.onAlert.push({action});
  }

  /** Actions scheduled that have not run yet. */
  pending(): number {
    return this.onFetch.length + this.onRead.length + this.onAlert.length;
  }

  /** Runs `action` now, as a person; what it returns (a read nobody counts) comes back. */
  act<T>(action: (ss: FakeSpreadsheet, collaborator: Collaborator) => T): T {
    return this.env.asPerson(() => action(this.spreadsheet, this));
  }

  /**
   * Sorts the data rows (2 to the last row with content; the header row stays) by one column,
   * moving every cell of each row: values, formulas (as copies), formats, notes, validation.
   */
  sortRows(sheet: SheetRef, spec: SortRowsSpec): void {
    const target = this.sheet(sheet);
    const column =
      typeof spec.column === 'number'
        ? spec.column
        : headerColumn(target, spec.column);
    const last = target.lastRow();
    if (last < 3) return;
    this.env.asPerson(() =>
      target.sortRows(
        {
          row: 2,
          column: 1,
          numRows: last - 1,
          numColumns: target.size().maxColumns,
        },
        [{column, ascending: spec.ascending ?? true}],
      ),
    );
  }

  /** Inserts `count` empty rows before row `beforeRow`; formulas follow. */
  insertRows(sheet: SheetRef, beforeRow: number, count = 1): void {
    const target = this.sheet(sheet);
    this.env.asPerson(() => target.insertRowsBefore(beforeRow, count));
  }

  /** Deletes `count` rows from row `row`; formulas follow (#REF! for the deleted cells). */
  deleteRows(sheet: SheetRef, row: number, count = 1): void {
    const target = this.sheet(sheet);
    this.env.asPerson(() => target.deleteRows(row, count));
  }

  /** Types `text` into one cell ('B2'), parsed as Sheets parses typed input. */
  typeInto(sheet: SheetRef, a1: string, text: string): void {
    const target = this.sheet(sheet);
    this.env.asPerson(() => typeIntoCell(target, a1, text));
  }

  // ---- for the runtime ----

  /** A UrlFetchApp call got its answers from the wire and is about to return them. */
  fetchAnswering(): void {
    this.fetchCalls++;
    this.runDue(this.onFetch, a => a.call === this.fetchCalls);
  }

  /** The add-on read values of `sheet`. */
  valuesRead(sheet: FakeSheet): void {
    if (!this.env.execution) return;
    this.runDue(this.onRead, a => a.sheet === sheet.title());
  }

  /** An alert is open, its answer not returned yet. */
  alertOpen(): void {
    if (!this.env.execution) return;
    this.runDue(this.onAlert, () => true);
  }

  /** Throws (once) what an action scheduled into the execution threw. */
  raiseFailure(): void {
    const failure = this.failure;
    if (failure === undefined) return;
    this.failure = undefined;
    throw failure;
  }

  private runDue<T extends {action: CollaboratorAction}>(
    scheduled: T[],
    due: (entry: T) => boolean,
  ): void {
    const now = scheduled.filter(due);
    for (const entry of now) {
      scheduled.splice(scheduled.indexOf(entry), 1);
      try {
        this.act(entry.action);
      } catch (e) {
        // Thrown into the add-on, it might be caught and turned into a status: the runtime
        // throws it to the test when the execution ends instead.
        if (!this.env.execution) throw e;
        this.failure ??= e;
      }
    }
  }

  private sheet(ref: SheetRef): FakeSheet {
    if (typeof ref !== 'string') return ref;
    const sheet = this.spreadsheet.sheet(ref);
    if (!sheet) throw new Error(`the collaborator finds no sheet "${ref}"`);
    return sheet;
  }
}

function headerColumn(sheet: FakeSheet, header: string): number {
  const {maxColumns} = sheet.size();
  for (let c = 1; c <= maxColumns; c++) {
    const content = sheet.cellAt(1, c)?.content;
    if (content?.kind === 'text' && content.text === header) return c;
  }
  throw new Error(`no column "${header}" in row 1 of ${sheet.title()}`);
}
