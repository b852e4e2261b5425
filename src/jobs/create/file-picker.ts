/**
 * "Choose files…": the Google Picker in a dialog, and the Drive files picked there added to the
 * Creatives sheet. The add-on holds only the `drive.file` scope, under which Drive lets it read
 * the files a user picked with the Picker and no others: picking is how a Drive file becomes
 * one the upload can read (docs/deploy.md).
 */
import type {Platform} from '../../platform/ports';
import {readFileCell} from '../../rules/creative';
import {excerpt} from '../../rules/values';
import {CREATIVES} from '../../sheets/schemas/creatives';
import {cellOf, openTable, sheetRow} from '../../sheets/table';
import {counted} from '../../text/wording';
import {RowWrites} from '../row-writes';
import {withDocumentLock} from '../run';

/** The dialog's HTML file in dist/ (built from src/ui/picker.html). */
export const PICKER_FILE = 'Picker';

/** Google's Picker needs room: it is laid out for at least 566 x 350 pixels. */
const DIALOG = {title: 'Choose material files', width: 900, height: 600};

export function showFilePicker(platform: Platform): void {
  platform.ui.showDialog(
    PICKER_FILE,
    DIALOG.title,
    DIALOG.width,
    DIALOG.height,
  );
}

/** The user's token for the Picker in their own browser: never logged, never stored. */
export function pickerToken(platform: Platform): string {
  return platform.identity.oauthToken();
}

/** What the Picker's callback tells of a picked file (its `docs` entries). */
export interface PickedFile {
  id: string;
  name?: string;
  mimeType?: string;
}

export interface PickedFilesResult {
  /** Sheet rows added to Creatives, one per file not already there. */
  rows: number[];
  /** Files a row already names (waiting for its upload, or uploaded). */
  already: number;
  message: string;
}

const DRIVE_ID = /^[A-Za-z0-9_-]{10,}$/;

function pickedIds(files: unknown): PickedFile[] {
  if (!Array.isArray(files)) {
    throw new Error('Choose files…: the Picker sent no list of files.');
  }
  return files.map((f: unknown, i) => {
    const id = String((f as PickedFile | null)?.id ?? '');
    if (!DRIVE_ID.test(id)) {
      throw new Error(
        `Choose files…: file ${i + 1} has no Drive id (got ${excerpt(id)}); nothing was added.`,
      );
    }
    return {id, name: String((f as PickedFile).name ?? '')};
  });
}

/**
 * One Creatives row per picked file that no row names yet: its `file` is the Drive id and the
 * row waits for Upload creative materials. A file a row already names is left to that row.
 */
export function addPickedFiles(
  platform: Platform,
  files: unknown,
): PickedFilesResult {
  const picked = pickedIds(files);
  return withDocumentLock(platform, () => {
    const table = openTable(platform.workbook(), CREATIVES, {create: true})!;
    const named = new Set(
      table.values.flatMap((_, i) => {
        const cell = readFileCell(cellOf(table, i, 'file'));
        return 'ref' in cell && 'driveId' in cell.ref ? [cell.ref.driveId] : [];
      }),
    );
    const writes = new RowWrites(table, () => platform.clock.now());
    const rows: number[] = [];
    let already = 0;
    for (const file of picked) {
      if (named.has(file.id)) {
        already++;
        continue;
      }
      named.add(file.id);
      const index = writes.append();
      writes.set(index, 'file', file.id);
      writes.status(
        index,
        'EDITED',
        `Picked with "Choose files…"${file.name ? ` (${excerpt(file.name, false)})` : ''}: Upload creative materials uploads it.`,
      );
      rows.push(sheetRow(index));
    }
    writes.flush();
    const added =
      rows.length === 0
        ? 'No row added'
        : `${counted(rows.length, 'file')} added to ${CREATIVES.name} (${rows.length === 1 ? `row ${rows[0]}` : `rows ${rows[0]}–${rows[rows.length - 1]}`})`;
    const kept =
      already > 0
        ? `; ${counted(already, 'file')} already in a row of ${CREATIVES.name}`
        : '';
    const next =
      rows.length > 0 ? '. Run Upload creative materials to upload them.' : '.';
    return {rows, already, message: `${added}${kept}${next}`};
  });
}
