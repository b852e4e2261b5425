/**
 * Upload creative materials (step 1 of the offer creation chain, API 4.1): every Creatives row
 * with a `file` and no creative_md5 is read (Drive or https) and uploaded; the row gets the
 * creative_md5 and creative_name the API answers. An `already existed` answer carries the
 * material's md5 and name, which are filled in just the same (part 1, rule 3).
 *
 * Files are read and sent in batches small enough for Apps Script's memory and UrlFetchApp's
 * 50 MB per request. A row whose file cannot be read is INVALID (missing, not shared, too
 * large, not a material) or ERROR (not reachable now), and nothing is sent for it.
 */
import type {ApiClient} from '../api/client';
import {OutcomeUnknownError} from '../api/errors';
import {uploadMaterials} from '../api/operations';
import type {Material, UploadedMaterial} from '../api/types';
import type {FileBlob, FileSource, Platform} from '../platform/ports';
import {
  MAX_MATERIAL_BYTES,
  materialTypeProblem,
  readFileCell,
} from '../rules/creative';
import {CREATIVES} from '../sheets/schemas/creatives';
import type {SyncStatus} from '../sheets/status';
import {Table, cellOf, openTable, sheetRow} from '../sheets/table';
import {accountLabel, connect} from './connect';
import {RowWrites} from './row-writes';
import {JobSummary, TimeBudget, summaryLine, withDocumentLock} from './run';
import {urlWhitelistProblem} from './url-whitelist';

/**
 * Files per upload batch (a fetchAll batch of the API client's size), and their bytes
 * together: the byte cap keeps a batch well inside Apps Script's memory.
 */
export const UPLOAD_BATCH_FILES = 100;
export const UPLOAD_BATCH_BYTES = 40 * 1024 * 1024;

/** How one Creatives row came out. */
export interface MaterialVerdict {
  status: SyncStatus;
  message: string;
  /** Set when the material is on the server. */
  material?: {creative_md5: string; creative_name: string};
}

export interface UploadContext {
  client: ApiClient;
  files: FileSource;
  writes: RowWrites<Material>;
  budget: TimeBudget;
}

export interface UploadReport {
  verdicts: Map<number, MaterialVerdict>;
  /** Rows not reached for lack of time. */
  remaining: number[];
  requests: number;
}

interface Ready {
  index: number;
  blob: FileBlob;
  bytes: number;
}

/**
 * Uploads the Creatives rows `indexes` and records each outcome in `context.writes` (md5,
 * name, status); the caller flushes. No new batch starts once the time budget is spent.
 */
export function uploadRows(
  context: UploadContext,
  indexes: readonly number[],
): UploadReport {
  const {writes} = context;
  const table = writes.table;
  const verdicts = new Map<number, MaterialVerdict>();
  const give = (index: number, verdict: MaterialVerdict) => {
    verdicts.set(index, verdict);
    writes.status(index, verdict.status, verdict.message);
    if (verdict.material) {
      writes.set(index, 'creative_md5', verdict.material.creative_md5);
      writes.set(index, 'creative_name', verdict.material.creative_name);
    }
  };
  const report: UploadReport = {verdicts, remaining: [], requests: 0};
  let batch: Ready[] = [];
  let bytes = 0;
  const send = () => {
    if (batch.length === 0) return;
    const outcomes = uploadMaterials(
      context.client,
      batch.map(r => r.blob),
    );
    report.requests += batch.length;
    batch.forEach((ready, i) => {
      const outcome = outcomes[i];
      give(
        ready.index,
        outcome.ok
          ? uploaded(table, ready.index, outcome.data)
          : {status: 'ERROR', message: uploadError(outcome.error)},
      );
    });
    batch = [];
    bytes = 0;
  };
  for (const [n, index] of indexes.entries()) {
    if (batch.length === 0 && !context.budget.canStart()) {
      report.remaining = indexes.slice(n);
      break;
    }
    const read = readMaterial(context.files, table, index);
    if ('status' in read) {
      give(index, read);
      continue;
    }
    batch.push(read);
    bytes += read.bytes;
    if (batch.length >= UPLOAD_BATCH_FILES || bytes >= UPLOAD_BATCH_BYTES) {
      send();
    }
  }
  send();
  return report;
}

/** The row's file as a blob ready to send, or why it cannot be sent. */
function readMaterial(
  files: FileSource,
  table: Table<Material>,
  index: number,
): Ready | MaterialVerdict {
  const invalid = (why: string): MaterialVerdict => ({
    status: 'INVALID',
    message: `file ${why}. Nothing was uploaded.`,
  });
  const cell = readFileCell(cellOf(table, index, 'file'));
  if ('problem' in cell) return invalid(cell.problem);
  if ('url' in cell.ref) {
    const refused = urlWhitelistProblem(cell.ref.url);
    if (refused) {
      return invalid(
        `${refused}: put the file in Drive and give its id or link instead`,
      );
    }
  }
  const label = String(cellOf(table, index, 'creative_name')).trim();
  const read = files.read(cell.ref, {
    maxBytes: MAX_MATERIAL_BYTES,
    ...(label ? {name: label} : {}),
  });
  if (!read.ok) {
    return {
      status: read.problem === 'unreachable' ? 'ERROR' : 'INVALID',
      message: `file: ${read.reason}. Nothing was uploaded.`,
    };
  }
  const wrongType = materialTypeProblem(read.blob.getContentType());
  if (wrongType) return invalid(wrongType);
  return {index, blob: read.blob, bytes: read.blob.getBytes().length};
}

function uploaded(
  table: Table<Material>,
  index: number,
  data: UploadedMaterial,
): MaterialVerdict {
  const material = {
    creative_md5: data.creative_md5,
    creative_name: data.creative_name,
  };
  const head = data.alreadyExisted
    ? `Already on the server (the API answered "${data.message ?? 'already existed'}"): creative_md5 ${data.creative_md5} and creative_name ${data.creative_name} filled in.`
    : `Uploaded: creative_md5 ${data.creative_md5}, creative_name ${data.creative_name}.`;
  const twin = table.values.findIndex(
    (_, i) =>
      i !== index &&
      String(cellOf(table, i, 'creative_md5')).toLowerCase() ===
        data.creative_md5,
  );
  const note =
    twin >= 0
      ? ` Creatives row ${sheetRow(twin)} is the same material: delete one of the two rows.`
      : '';
  return {status: 'OK', message: head + note, material};
}

function uploadError(error: Error): string {
  if (error instanceof OutcomeUnknownError) {
    return `${error.cause.message}. Run the upload again: if the file was stored, the API answers "already existed" and the md5 is filled in.`;
  }
  return `${error.message}. Nothing was uploaded.`;
}

export function uploadCreatives(platform: Platform): JobSummary {
  return withDocumentLock(platform, () => {
    const budget = new TimeBudget(() => platform.clock.now());
    const connected = connect(platform, budget.retryDeadline);
    const table = openTable(platform.workbook(), CREATIVES, {create: true})!;
    const writes = new RowWrites(table, () => platform.clock.now());
    const pending = table.values
      .map((_, i) => i)
      .filter(i => CREATIVES.awaitsCreation!(h => cellOf(table, i, h)));
    platform.progress.report('uploadCreatives', 0, pending.length);
    const report = uploadRows(
      {client: connected.client, files: platform.files, writes, budget},
      pending,
    );
    for (const index of report.remaining) {
      writes.status(
        index,
        'EDITED',
        'Not uploaded yet: the time ran out. Run Upload creative materials again to continue.',
      );
    }
    writes.flush();
    platform.progress.report('uploadCreatives', pending.length, pending.length);
    const counts = {
      job: 'uploadCreatives',
      account: accountLabel(connected.account),
      ok: writes.count('OK'),
      invalid: writes.count('INVALID'),
      error: writes.count('ERROR'),
      skipped: 0,
      remaining: report.remaining.length,
      dryRun: false,
      problems: writes.problems(),
      requests: report.requests,
    };
    const none =
      pending.length === 0
        ? `Nothing to upload (${counts.account}): add rows to Creatives with a file (a Drive file id or link, or an https link) and no creative_md5.`
        : undefined;
    return {...counts, message: none ?? summaryLine(counts, CREATIVES.name)};
  });
}
