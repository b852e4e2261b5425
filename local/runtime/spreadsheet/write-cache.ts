/**
 * Apps Script's write caching, as the latency model prices it. The Spreadsheet service keeps
 * the writes a script makes (values, formats, notes, validation, sizes, protection settings)
 * and sends them together with the next call that needs an answer from the document, at
 * SpreadsheetApp.flush(), or when the execution ends. Google's best-practices guide says so
 * ("write caching to save what is likely to be set ... alternating read and write commands
 * is slow"), and it is why a script that reads everything first and writes everything last is
 * fast: its writes cost one round trip between them, not one each.
 */
import type {Cell} from './sheet';

/**
 * - queued: a write; it answers nothing the script needs, so it waits for the next round trip.
 * - local: answered by the script's side alone (a Range is coordinates; a builder or the Ui
 *   handle is local: the Ui's own calls are priced as such).
 * - roundTrip: needs the document's answer (a read, a new sheet, a Protection): it first sends
 *   whatever writes are queued.
 */
export type SpreadsheetCallKind = 'queued' | 'local' | 'roundTrip';

/** Methods that only change the document. */
const WRITE =
  /^(Range|RangeList|Sheet|Protection|Spreadsheet)\.(set|clear|insert(Rows?|Columns?)|delete(Rows?|Columns?)|hide|show|autoResize|appendRow|rename|remove|merge|breakApart|trimWhitespace|check|uncheck|sort)/;

const LOCAL = new Set([
  'Sheet.getRange',
  'Sheet.getRangeList',
  'Range.offset',
  'Range.getCell',
  'SpreadsheetApp.newDataValidation',
  'SpreadsheetApp.newFilterCriteria',
  'SpreadsheetApp.getUi',
  'SpreadsheetApp.flush',
]);

/** The pseudo-call that sends the queued writes: one round trip, however many they are. */
export const SEND_QUEUED_WRITES = 'SpreadsheetApp.(queued writes sent)';

export function spreadsheetCallKind(key: string): SpreadsheetCallKind {
  if (LOCAL.has(key)) return 'local';
  if (WRITE.test(key)) return 'queued';
  return 'roundTrip';
}

/**
 * What the cells held before the writes still queued: Apps Script drops the queue of an
 * execution it kills, so those cells come back as they were. Only contents (values, formulas)
 * and the number format a write inferred are kept: what a killed job's re-run depends on.
 * Cells are remembered by identity, so rows inserted or deleted since do not misplace them.
 */
export class WriteJournal {
  private readonly prior = new Map<Cell, Pick<Cell, 'content' | 'format'>>();

  /** Called before a queued write changes `cell`; the oldest prior state wins. */
  note(cell: Cell): void {
    if (!this.prior.has(cell))
      this.prior.set(cell, {content: cell.content, format: cell.format});
  }

  /** A person wrote `cell` since: what they wrote stays whatever becomes of the queue. */
  forget(cell: Cell): void {
    this.prior.delete(cell);
  }

  /**
   * Rows or columns moved under a queued write: what a kill puts back in `cell` is its formula
   * as the move rewrote it, so it keeps pointing at the same cells.
   */
  follow(cell: Cell, rewrite: (formula: string) => string): void {
    const was = this.prior.get(cell);
    if (was?.content?.kind === 'formula') {
      const formula = rewrite(was.content.formula);
      was.content = {kind: 'formula', formula};
    }
  }

  /** The queue was sent: its writes are the document's now. */
  clear(): void {
    this.prior.clear();
  }

  /** The queue was dropped: every cell it changed holds what it held before. */
  rollBack(): void {
    for (const [cell, was] of this.prior) {
      if (was.content) cell.content = was.content;
      else delete cell.content;
      if (was.format !== undefined) cell.format = was.format;
      else delete cell.format;
    }
    this.clear();
  }
}
