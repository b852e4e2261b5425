/**
 * A row edited by hand no longer says OK (issue 36): the add-on's onEdit simple trigger marks
 * it EDITED as the edit happens, so no green OK stands beside a value that was never sent.
 * It runs without authorization (AuthMode.LIMITED), within 30 seconds, so it touches only the
 * edited sheet: the header row, then the status and message columns of the edited rows. Only
 * an OK is replaced: INVALID, ERROR and CONFLICT say what the next push must know, and EDITED
 * already says it. A paste spans rows: each row of it is judged alone. A tick of `seen` in
 * Alerts is told to every open sidebar (the document cache), which counts the alerts again.
 */
import type {EditedBlock, Platform, Workbook} from '../../platform/ports';
import {
  SYNC_MESSAGE,
  SYNC_STATUS,
  SheetSchema,
  editableOf,
} from '../../sheets/schema';
import {BUDGETS} from '../../sheets/schemas/budgets';
import {CAMPAIGNS} from '../../sheets/schemas/campaigns';
import {ALERTS} from '../../sheets/schemas/alerts';
import {OFFERS} from '../../sheets/schemas/offers';
import {EDITED_HERE, statusColor} from '../../sheets/status';

/** The sheets a push sends from: their editable cells are what changes a record. */
const PUSHED = [CAMPAIGNS, OFFERS, BUDGETS] as ReadonlyArray<
  SheetSchema<never>
>;

/** What a person's edit changes for the add-on: a row's OK, or the count of alerts not seen. */
export function onEdit(platform: Platform, edit: EditedBlock): void {
  if (edit.row + edit.rows - 1 < 2) return;
  if (edit.sheet === ALERTS.name) {
    const headers = headersOf(platform.workbook(), edit.sheet);
    if (headers && touches(edit, headers, ['seen']))
      platform.progress.alertsTicked(platform.clock.now());
    return;
  }
  markEdited(platform.workbook(), edit);
}

/** Row 1 of the sheet, trimmed; null when there is no such sheet. */
function headersOf(workbook: Workbook, name: string): string[] | null {
  const sheet = workbook.sheet(name);
  return sheet
    ? sheet.readBlock(1, 1, 1, sheet.maxColumns())[0].map(h => String(h).trim())
    : null;
}

/** Whether the edit covers a column of one of `wanted` headers. */
function touches(
  edit: EditedBlock,
  headers: readonly string[],
  wanted: readonly string[],
): boolean {
  return wanted.some(header => {
    const column = headers.indexOf(header) + 1;
    return (
      column > 0 && column >= edit.column && column < edit.column + edit.columns
    );
  });
}

/** Marks EDITED the rows of `edit` that said OK, where it touched an editable column. */
function markEdited(workbook: Workbook, edit: EditedBlock): void {
  const schema = PUSHED.find(s => s.name === edit.sheet);
  if (!schema) return;
  const headers = headersOf(workbook, edit.sheet);
  if (!headers) return;
  const editable = editableOf(schema).map(c => c.header);
  const status = headers.indexOf(SYNC_STATUS) + 1;
  const message = headers.indexOf(SYNC_MESSAGE) + 1;
  if (!touches(edit, headers, editable) || status === 0 || message === 0)
    return;
  const sheet = workbook.sheet(edit.sheet)!;
  const top = Math.max(edit.row, 2);
  const rows = edit.row + edit.rows - top;
  const statuses = sheet.readBlock(top, status, rows, 1);
  const marked = statuses.map(([s]) => s === 'OK');
  if (!marked.includes(true)) return;
  const messages = sheet.readBlock(top, message, rows, 1);
  sheet.write(
    top,
    status,
    statuses.map(([s], i) => [marked[i] ? 'EDITED' : s]),
  );
  sheet.write(
    top,
    message,
    messages.map(([m], i) => [marked[i] ? EDITED_HERE : m]),
  );
  sheet.setBackgrounds(
    top,
    status,
    statuses.map(([s], i) => [statusColor(marked[i] ? 'EDITED' : s)]),
  );
}
