/**
 * The event of the onEdit simple trigger. It runs in AuthMode.LIMITED where the add-on is
 * enabled in the spreadsheet (it may read and write that spreadsheet only), and not at all, or
 * in AuthMode.NONE, elsewhere: then nothing is read.
 */
import type {EditedBlock} from './ports';

export function editedBlock(event: unknown): EditedBlock | null {
  const e = event as GoogleAppsScript.Events.SheetsOnEdit | undefined;
  if (!e?.range || e.authMode === ScriptApp.AuthMode.NONE) return null;
  const range = e.range;
  return {
    sheet: range.getSheet().getName(),
    row: range.getRow(),
    column: range.getColumn(),
    rows: range.getNumRows(),
    columns: range.getNumColumns(),
  };
}
