/**
 * What an upload came to for one Creatives row, worded for its status: a file refused before a
 * byte of it was sent, an upload answer read (an `already existed` answer that names its md5
 * but no name is left for the look-up by md5 to name: upload-md5s.ts), a material on the server.
 */
import type {Outcome} from '../../api/client';
import {OutcomeUnknownError} from '../../api/errors';
import type {Material, UploadedMaterial} from '../../api/types';
import type {SyncStatus} from '../../sheets/status';
import {Table, cellOf, sheetRow} from '../../sheets/table';

/** How one Creatives row came out. */
export interface MaterialVerdict {
  status: SyncStatus;
  message: string;
  /** Set when the material is on the server. */
  material?: {creative_md5: string; creative_name: string};
  /** The upload was sent and no answer proved what happened. */
  unknown?: true;
}

/** A row whose `already existed` answer named its md5 but no name. */
export interface Unnamed {
  index: number;
  md5: string;
  /** The answer's text that says `already existed`. */
  answer: string;
}

/** Longest excerpt of an API text that a row's message quotes. */
const MSG_EXCERPT = 120;

export const invalid = (why: string): MaterialVerdict => ({
  status: 'INVALID',
  message: `file ${why}. Nothing was uploaded.`,
});

export function refusal(problem: string, reason: string): MaterialVerdict {
  return {
    status: problem === 'unreachable' ? 'ERROR' : 'INVALID',
    message: `file: ${reason}. Nothing was uploaded.`,
  };
}

/**
 * What one upload answer says of its row; an md5 without a name is left for the look-up by
 * md5 to name, not guessed from the answer's text.
 */
export function readAnswer(
  table: Table<Material>,
  index: number,
  outcome: Outcome<UploadedMaterial>,
): MaterialVerdict | Unnamed {
  if (!outcome.ok) {
    return {
      status: 'ERROR',
      message: uploadError(outcome.error),
      ...(outcome.error instanceof OutcomeUnknownError
        ? {unknown: true as const}
        : {}),
    };
  }
  const {creative_md5: md5, creative_name: name} = outcome.data;
  const answer = outcome.data.message ?? '';
  if (md5 && name !== undefined) {
    const head = outcome.data.alreadyExisted
      ? `Already on the server (the API answered ${quoted(answer)}): creative_md5 ${md5} and creative_name ${name} filled in.`
      : `Uploaded: creative_md5 ${md5}, creative_name ${name}.`;
    return onServer(table, index, md5, name, head);
  }
  if (md5) return {index, md5, answer};
  return {
    status: 'ERROR',
    message: `The API answered ${quoted(answer)} but named no creative_md5 that could be read, so nothing was filled in. Run Refresh creative materials: the material is listed in a row of its own; then delete this row.`,
  };
}

/** The material is on the server as `md5` and `name`; `head` says how that is known. */
export function onServer(
  table: Table<Material>,
  index: number,
  md5: string,
  name: string,
  head: string,
): MaterialVerdict {
  const material = {creative_md5: md5, creative_name: name};
  const twin = table.values.findIndex(
    (_, i) =>
      i !== index &&
      String(cellOf(table, i, 'creative_md5')).toLowerCase() === md5,
  );
  const note =
    twin >= 0
      ? ` Creatives row ${sheetRow(twin)} is the same material: delete one of the two rows.`
      : '';
  return {status: 'OK', message: head + note, material};
}

/** The API's msg in quotes, cut short: a row's message never carries a whole answer. */
export function quoted(text: string): string {
  const short =
    text.length > MSG_EXCERPT ? `${text.slice(0, MSG_EXCERPT)}…` : text;
  return `"${short || 'already existed'}"`;
}

function uploadError(error: Error): string {
  if (error instanceof OutcomeUnknownError) {
    return `${error.cause.message}. Run the upload again: it looks the file's md5 up first, and if the file was stored, fills it in without sending the file again.`;
  }
  return `${error.message}. Nothing was uploaded.`;
}
