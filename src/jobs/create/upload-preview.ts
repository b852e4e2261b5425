/**
 * The preview of an upload: each row to upload gets its cell checked and, for a Drive file, its
 * metadata asked (which file, how large, of what type: Drive is asked, the API is not); a file
 * at an https link is not fetched, and its row says the run reads it at upload time.
 */
import type {Material} from '../../api/types';
import type {FileSource} from '../../platform/ports';
import {excerpt} from '../../rules/values';
import {cellOf} from '../../sheets/table';
import {counted} from '../../text/wording';
import type {RowWrites} from '../row-writes';
import type {TimeBudget} from '../run';
import {
  UPLOAD_BATCH_FILES,
  fileOf,
  fileText,
  inspectRows,
} from './upload-files';

/**
 * What a run would upload, row by row, sending nothing: each row EDITED with the file it
 * uploads, or INVALID / ERROR as the run would mark it. Answers the upload bodies, each
 * naming its file. Near the time limit no more Drive files are read: their rows say the run
 * reads them, rather than the execution being killed with nothing written.
 */
export function previewUploads(
  files: FileSource,
  writes: RowWrites<Material>,
  indexes: readonly number[],
  budget: TimeBudget,
): Array<{file: string}> {
  const wouldSend: Array<{index: number; file: string}> = [];
  const unread = (index: number, file: string, why: string) => {
    wouldSend.push({index, file});
    writes.status(
      index,
      'EDITED',
      `Preview: a run reads the file ${excerpt(file, false)} at upload time and uploads it (${why}).`,
    );
  };
  const drive: number[] = [];
  for (const index of indexes) {
    const ref = fileOf(writes.table, index);
    if ('status' in ref) writes.status(index, ref.status, ref.message);
    else if ('url' in ref)
      unread(index, ref.url, 'a preview does not fetch a link');
    else drive.push(index);
  }
  for (let next = 0; next < drive.length; next += UPLOAD_BATCH_FILES) {
    const chunk = drive.slice(next, next + UPLOAD_BATCH_FILES);
    if (!budget.canStart()) {
      for (const index of drive.slice(next)) {
        unread(
          index,
          fileText(writes.table, index),
          'the preview had no time left to inspect it',
        );
      }
      break;
    }
    const {inspected, verdicts} = inspectRows(files, writes.table, chunk);
    for (const [index, verdict] of verdicts)
      writes.status(index, verdict.status, verdict.message);
    for (const {index, facts} of inspected) {
      const name =
        facts.fileName ?? String(cellOf(writes.table, index, 'file'));
      wouldSend.push({index, file: name});
      writes.status(
        index,
        'EDITED',
        `Preview: a run uploads the Drive file ${excerpt(name, false)} (${counted(facts.bytes ?? 0, 'byte')}, ${facts.contentType}).`,
      );
    }
  }
  return wouldSend.sort((a, b) => a.index - b.index).map(({file}) => ({file}));
}
