/**
 * A Creatives row's file, before it is uploaded: where its cell says it is (or why it cannot be
 * read, with no request), its Drive metadata inspected so that a file that cannot be uploaded
 * is refused before a byte of it is read, then the files read together in groups small enough
 * for Apps Script's memory and UrlFetchApp's 50 MB per request.
 */
import type {Material} from '../../api/types';
import type {
  FileBlob,
  FileFacts,
  FileRef,
  FileSource,
  FileWanted,
} from '../../platform/ports';
import {
  MAX_MATERIAL_BYTES,
  materialTypeProblem,
  readFileCell,
} from '../../rules/creative';
import {Table, cellOf} from '../../sheets/table';
import {urlWhitelistProblem} from '../url-whitelist';
import {MaterialVerdict, invalid, refusal} from './upload-verdicts';

/**
 * Files per upload batch (a fetchAll batch of the API client's size), and their bytes
 * together: the byte cap keeps a batch well inside Apps Script's memory.
 */
export const UPLOAD_BATCH_FILES = 100;
const UPLOAD_BATCH_BYTES = 40 * 1024 * 1024;

export interface Ready {
  index: number;
  blob: FileBlob;
}

/** A row's file cell, as an upload's outbox entry names it. */
export const fileText = (table: Table<Material>, index: number) =>
  String(cellOf(table, index, 'file')).trim();

/** Where the row's file is, or why it cannot be read: the checks that need no request. */
export function fileOf(
  table: Table<Material>,
  index: number,
): FileRef | MaterialVerdict {
  const cell = readFileCell(cellOf(table, index, 'file'));
  if ('problem' in cell) return invalid(cell.problem);
  if ('url' in cell.ref) {
    const refused = urlWhitelistProblem(cell.ref.url);
    if (refused) {
      return invalid(
        `${refused}: put the file in Drive and pick it with "Choose files…" instead`,
      );
    }
  }
  return cell.ref;
}

/** A row whose file passed every check that reads no byte of it. */
export interface Inspected {
  index: number;
  facts: FileFacts;
}

/**
 * The rows' files inspected together (for Drive files, one batch of metadata requests): the
 * rows whose file may be read, and a verdict for each row whose file may not.
 */
export function inspectRows(
  files: FileSource,
  table: Table<Material>,
  indexes: readonly number[],
): {inspected: Inspected[]; verdicts: Map<number, MaterialVerdict>} {
  const verdicts = new Map<number, MaterialVerdict>();
  const rows: number[] = [];
  const wanted: FileWanted[] = [];
  for (const index of indexes) {
    const ref = fileOf(table, index);
    if ('status' in ref) {
      verdicts.set(index, ref);
      continue;
    }
    const label = String(cellOf(table, index, 'creative_name')).trim();
    rows.push(index);
    wanted.push({ref, ...(label ? {name: label} : {})});
  }
  const checks = files.inspect(wanted, {maxBytes: MAX_MATERIAL_BYTES});
  const inspected: Inspected[] = [];
  checks.forEach((check, k) => {
    const index = rows[k];
    if (!check.ok) {
      verdicts.set(index, refusal(check.problem, check.reason));
      return;
    }
    const wrongType = materialTypeProblem(check.contentType);
    if (wrongType) verdicts.set(index, invalid(wrongType));
    else inspected.push({index, facts: check});
  });
  return {inspected, verdicts};
}

/** The inspected files read together: each a blob ready to send, or why it cannot be sent. */
export function readMaterials(
  files: FileSource,
  rows: readonly Inspected[],
): Array<Ready | MaterialVerdict> {
  const reads = files.readAll(
    rows.map(r => r.facts),
    {maxBytes: MAX_MATERIAL_BYTES},
  );
  return reads.map((read, k) => {
    if (!read.ok) return refusal(read.problem, read.reason);
    const wrongType = materialTypeProblem(read.blob.getContentType());
    if (wrongType) return invalid(wrongType);
    return {index: rows[k].index, blob: read.blob};
  });
}

/**
 * Inspected rows in groups read and sent together: at most UPLOAD_BATCH_FILES files and
 * UPLOAD_BATCH_BYTES bytes. A link's size is known only once fetched, so it goes alone.
 */
export function uploadGroups(rows: readonly Inspected[]): Inspected[][] {
  const groups: Inspected[][] = [];
  let group: Inspected[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = row.facts.bytes ?? Number.POSITIVE_INFINITY;
    if (
      group.length > 0 &&
      (group.length >= UPLOAD_BATCH_FILES || bytes + size > UPLOAD_BATCH_BYTES)
    ) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(row);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
