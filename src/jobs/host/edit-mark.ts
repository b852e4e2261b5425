/**
 * A row edited by hand no longer says OK (issue 36): the add-on's onEdit simple trigger marks
 * it EDITED as the edit happens, so no green OK stands beside a value that was never sent.
 * It runs without authorization (AuthMode.LIMITED), within 30 seconds, so it touches only the
 * edited sheet: the header row, then the status and message columns of the edited rows. Only
 * an OK is replaced: INVALID, ERROR and CONFLICT say what the next push must know, and EDITED
 * already says it. A paste spans rows: each row of it is judged alone.
 */
import type {EditedBlock, Workbook} from '../../platform/ports';
import {
  SYNC_MESSAGE,
  SYNC_STATUS,
  SheetSchema,
  editableOf,
} from '../../sheets/schema';
import {BUDGETS} from '../../sheets/schemas/budgets';
import {CAMPAIGNS} from '../../sheets/schemas/campaigns';
import {OFFERS} from '../../sheets/schemas/offers';
import {EDITED_HERE, statusColor} from '../../sheets/status';

/** The sheets a push sends from: their editable cells are what changes a record. */
const PUSHED = [CAMPAIGNS, OFFERS, BUDGETS] as ReadonlyArray<
  SheetSchema<never>
>;

/** Marks EDITED the rows of `edit` that said OK, where it touched an editable column. */
export function markEdited(workbook: Workbook, edit: EditedBlock): number {
  const schema = PUSHED.find(s => s.name === edit.sheet);
  const top = Math.max(edit.row, 2);
  const bottom = edit.row + edit.rows - 1;
  if (!schema || bottom < top) return 0;
  const sheet = workbook.sheet(edit.sheet);
  if (!sheet) return 0;
  const headers = sheet
    .readBlock(1, 1, 1, sheet.maxColumns())[0]
    .map(h => String(h).trim());
  const at = (header: string) => headers.indexOf(header) + 1;
  const touched = editableOf(schema).some(c => {
    const column = at(c.header);
    return column >= edit.column && column < edit.column + edit.columns;
  });
  const status = at(SYNC_STATUS);
  const message = at(SYNC_MESSAGE);
  if (!touched || status === 0 || message === 0) return 0;
  const rows = bottom - top + 1;
  const statuses = sheet.readBlock(top, status, rows, 1);
  const marked = statuses.map(([s]) => s === 'OK');
  if (!marked.includes(true)) return 0;
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
  return marked.filter(Boolean).length;
}
