/**
 * Uploads Creatives rows (API 4.1) and records each outcome on its row: the files are first
 * inspected (Drive's metadata of a batch of rows in one fetchAll: upload-files.ts), then read
 * and sent in batches. Each batch's uploads are posted to the outbox (state/outbox.ts) and
 * saved before it goes out, and each answer settles its own; a file whose upload is still in
 * the outbox (its answer lost, or the run stopped while it was out) has its md5 looked up
 * first (one creatives/source request for the batch): one the server stored then is filled
 * in, not sent again. A row whose file cannot be read is INVALID (not picked, too large, not a
 * material) or ERROR (not reachable now), and nothing is sent for it.
 *
 * An `already existed` answer carries the material's md5 and name, which are filled in just
 * the same (part 1, rule 3); where the answer names an md5 but no name that can be read
 * without guessing, the md5s of all such rows are looked up together (upload-md5s.ts) and the
 * row gets the name the server lists, or says that it could not. The same one look-up fills
 * every uploaded row's creative_type, resolution and size (which the upload answer leaves
 * out), so no refresh is needed for them.
 */
import {uploadMaterials} from '../../api/operations';
import type {Material} from '../../api/types';
import {excerpt} from '../../rules/values';
import {canonical} from '../../sheets/codec';
import type {HistoryChange} from '../../sheets/history';
import {ACCOUNT, accountCell, recordKey} from '../../sheets/accounts';
import {columnOf} from '../../sheets/rows';
import {CREATIVES} from '../../sheets/schemas/creatives';
import type {RecordState} from '../../sheets/pulled';
import type {OutboxEntry} from '../../state/outbox';
import {SYNC_STATUS} from '../../sheets/schema';
import {Table, cellOf} from '../../sheets/table';
import {
  MaterialOwner,
  UploadContext,
  UploadReport,
  UploadRun,
  uploadKey,
} from './upload-context';
import {
  Inspected,
  Ready,
  UPLOAD_BATCH_FILES,
  fileText,
  inspectRows,
  readMaterials,
  uploadGroups,
} from './upload-files';
import {fillDetails, listByMd5, nameByMd5} from './upload-md5s';
import {MaterialVerdict, onServer, readAnswer} from './upload-verdicts';

/**
 * The memo of the files of the batch out (their cells) of the release before the outbox: read
 * into the outbox once (earlierUploads).
 */
const UPLOADS_OUT = 'uploads out';

/**
 * Uploads the Creatives rows `indexes` and records each outcome in `context.writes` (md5,
 * name, status); the caller flushes. No new batch starts that the time budget says would not
 * end in time.
 */
export function uploadRows(
  context: UploadContext,
  indexes: readonly number[],
): UploadReport {
  const run: UploadRun = {
    context,
    report: {
      verdicts: new Map(),
      sent: [],
      found: [],
      remaining: [],
      requests: 0,
    },
    unnamed: [],
  };
  // The release before's marks name files, not accounts: read in with the rows to upload.
  if (indexes.length > 0)
    context.out.outbox.upgrade('upload', () =>
      earlierUploads(context, indexes),
    );
  run.report.remaining = uploadInBatches(run, indexes);
  completeFromServerList(run);
  return run.report;
}

/**
 * Inspects, reads and sends the rows batch by batch; answers the rows not reached. Each step
 * is a batch of requests, and the slowest so far says whether the next one would end in time.
 */
function uploadInBatches(run: UploadRun, indexes: readonly number[]): number[] {
  const {budget, files, writes} = run.context;
  for (let next = 0; next < indexes.length; next += UPLOAD_BATCH_FILES) {
    const chunk = indexes.slice(next, next + UPLOAD_BATCH_FILES);
    const checked = budget.batch(() => inspectRows(files, writes.table, chunk));
    if (!checked) return indexes.slice(next);
    for (const [index, verdict] of checked.verdicts) {
      recordVerdict(run, index, verdict);
    }
    const groups = uploadGroups(checked.inspected);
    const stopped = groups.findIndex(
      g => !budget.batch(() => readAndSend(run, g)),
    );
    if (stopped >= 0) {
      return [
        ...groups.slice(stopped).flatMap(g => g.map(r => r.index)),
        ...indexes.slice(next + UPLOAD_BATCH_FILES),
      ];
    }
  }
  return [];
}

/** Reads a group and uploads what could be read: one budgeted batch (so it answers true). */
function readAndSend(run: UploadRun, group: Inspected[]): boolean {
  const ready: Ready[] = [];
  readMaterials(run.context.files, group).forEach((read, k) => {
    if ('status' in read) recordVerdict(run, group[k].index, read);
    else ready.push(read);
  });
  sendBatch(run, notOnServer(run, ready));
  return true;
}

/**
 * The files of a batch the server does not list yet, where an earlier run may have sent them
 * (still in the outbox: an answer lost, an md5 answered without its name, or a run stopped
 * while its batch was out): the md5s of their bytes are looked up first (one request for the
 * batch), and a file the server stored then is filled in without its bytes being sent again,
 * its outbox entry settled. A batch no run sent before goes without a look-up. Should the
 * look-up fail, every file is sent: the server answers `already existed` for one it has.
 */
function notOnServer(run: UploadRun, batch: Ready[]): Ready[] {
  const {context, report} = run;
  const out = context.out.outbox.entries('upload');
  const maybeSent = (r: Ready) => {
    const key = uploadKey(context, r.index);
    return out.some(e => e.account === key.account && e.record === key.record);
  };
  if (!batch.some(maybeSent)) return batch;
  const md5s = batch.map(r => context.digest.md5OfBytes(r.blob.getBytes()));
  const {accountOf} = context.owner;
  // Each file is looked up in the account it goes to; an account whose look-up failed sends.
  const lookups = listByMd5(
    context.clientFor,
    batch.map((r, k) => ({account: accountOf(r.index), md5: md5s[k]})),
  );
  for (const lookup of lookups.values()) report.requests += lookup.requests;
  const found: number[] = [];
  const send = batch.filter((ready, k) => {
    const lookup = lookups.get(accountOf(ready.index));
    const material = lookup?.failure ? undefined : lookup?.listed?.get(md5s[k]);
    if (!material) return true;
    const name = String(material.creative_name ?? '');
    recordVerdict(
      run,
      ready.index,
      onServer(
        context.writes.table,
        ready.index,
        md5s[k],
        name,
        `Already on the server (its md5 is listed, so nothing was sent): creative_md5 ${md5s[k]} and creative_name ${name} filled in.`,
      ),
    );
    fillDetails(context.writes, ready.index, material);
    context.out.outbox.settle(uploadKey(context, ready.index));
    found.push(ready.index);
    return false;
  });
  report.found.push(...found);
  if (found.length > 0) context.settled?.(report, found);
  return send;
}

/** Uploads one batch and hands the rows it settled to the job at once, to be saved. */
function sendBatch(run: UploadRun, batch: Ready[]): void {
  if (batch.length === 0) return;
  const {context, report} = run;
  const from = report.sent.length;
  // On record before the batch goes out: a run stopped while it is out leaves its uploads in
  // the outbox, and the next run looks them up by md5 before sending them again.
  const time = new Date(context.out.now()).toISOString();
  context.out.outbox.post(
    batch.map(r => ({
      ...uploadKey(context, r.index),
      job: context.out.job,
      request: {},
      time,
    })),
  );
  context.sending?.();
  const outcomes = uploadMaterials(
    batch.map(r => ({
      client: context.clientFor(context.owner.accountOf(r.index)),
      body: r.blob,
    })),
  );
  report.requests += batch.length;
  batch.forEach((ready, i) => {
    report.sent.push(ready.index);
    const read = readAnswer(context.writes.table, ready.index, outcomes[i]);
    // A lost answer stays out; so does an md5 without its name, until it is named.
    if ('status' in read && !read.unknown)
      context.out.outbox.settle(uploadKey(context, ready.index));
    if ('md5' in read) run.unnamed.push(read);
    else recordVerdict(run, ready.index, read);
  });
  context.settled?.(
    report,
    report.sent.slice(from).filter(i => report.verdicts.has(i)),
  );
}

/**
 * The uploads the release before the outbox may have left on the server unanswered, as outbox
 * entries: the rows to upload now whose file its memo of the batch out names, or whose status
 * is ERROR (an answer lost, a 5xx). Its memo is cleared with the next save.
 */
function earlierUploads(
  context: UploadContext,
  indexes: readonly number[],
): Array<OutboxEntry<'upload'>> {
  const {book} = context.owner;
  const {table} = context.writes;
  const out = new Set(book.memo<string[]>(UPLOADS_OUT) ?? []);
  if (out.size > 0) book.setMemo(UPLOADS_OUT, null);
  return indexes
    .filter(
      index =>
        out.has(fileText(table, index)) ||
        String(cellOf(table, index, SYNC_STATUS)).trim() === 'ERROR',
    )
    .map(index => ({
      ...uploadKey(context, index),
      job: context.out.job,
      request: {},
      time: '',
    }));
}

/** Puts a row's outcome in the report and on the row; a material on the server is remembered. */
function recordVerdict(
  {context, report}: UploadRun,
  index: number,
  verdict: MaterialVerdict,
): void {
  const {writes, owner} = context;
  const account = owner.accountOf(index);
  report.verdicts.set(index, verdict);
  writes.status(index, verdict.status, verdict.message);
  // A file whose answer was lost keeps the account it went to: sent again by a re-run as
  // another account, it would land in another account instead of answering "already existed".
  if (verdict.material || verdict.unknown)
    writes.set(index, ACCOUNT, accountCell(account));
  if (verdict.material) {
    writes.set(index, 'creative_md5', verdict.material.creative_md5);
    writes.set(index, 'creative_name', verdict.material.creative_name);
    rememberMaterial(
      owner,
      account,
      writes.table,
      verdict.material.creative_md5,
    );
  }
}

/**
 * One look-up by md5 names the rows the answers left unnamed and fills in what the upload
 * answer leaves out of every material on the server, so no refresh is needed for them.
 */
function completeFromServerList(run: UploadRun): void {
  const {context, report, unnamed} = run;
  const {accountOf} = context.owner;
  // A file found before its upload has its details already.
  const uploaded = report.sent.flatMap(index => {
    const material = report.verdicts.get(index)?.material;
    return material ? [{index, md5: material.creative_md5}] : [];
  });
  if (unnamed.length + uploaded.length === 0) return;
  const lookups = listByMd5(
    context.clientFor,
    [...unnamed, ...uploaded].map(r => ({
      account: accountOf(r.index),
      md5: r.md5,
    })),
  );
  for (const lookup of lookups.values()) report.requests += lookup.requests;
  const lookupOf = (index: number) => lookups.get(accountOf(index))!;
  if (unnamed.length > 0) {
    const named = nameByMd5(unnamed, lookupOf, context.writes.table);
    for (const [index, verdict] of named) {
      recordVerdict(run, index, verdict);
      if (verdict.material)
        context.out.outbox.settle(uploadKey(context, index));
    }
    context.settled?.(report, [...named.keys()]);
  }
  for (const [index, verdict] of report.verdicts) {
    const listed =
      verdict.material &&
      lookupOf(index).listed?.get(verdict.material.creative_md5.toLowerCase());
    if (listed) fillDetails(context.writes, index, listed);
  }
}

/**
 * The History rows of the files an upload sent, or found on the server by their md5 (an
 * earlier run's upload whose answer was lost): a material by its md5 once on the server, else
 * by its file cell (a file the API refused, or whose answer was lost).
 */
export function uploadChanges(
  table: Table<Material>,
  report: UploadReport,
  rows: readonly number[] = [...report.sent, ...report.found],
): HistoryChange[] {
  return rows.flatMap(index => {
    const verdict = report.verdicts.get(index);
    if (!verdict) return [];
    const file = fileText(table, index);
    return [
      {
        sheet: CREATIVES.name,
        record: verdict.material?.creative_md5 ?? excerpt(file, false),
        field: 'material uploaded',
        before: '',
        after: verdict.material?.creative_name ?? excerpt(file, false),
        outcome: verdict.material
          ? 'OK'
          : verdict.unknown
            ? 'UNKNOWN'
            : 'ERROR',
        message: verdict.message,
      },
    ];
  });
}

/**
 * Remembers a material on the server as the uploading account's, as a refresh as that account
 * would: refreshed as another account, its row is then known as this one's (merge.ts), and
 * dropped like the account's other materials, not taken for an id nobody lists.
 */
function rememberMaterial(
  owner: MaterialOwner,
  account: string,
  table: Table<Material>,
  md5: string,
): void {
  const {book} = owner;
  const id = canonical(columnOf(table, 'creative_md5'), md5, owner.context);
  // No editable column: a material's pulled content is no rows (sheets/pulled.ts RecordState).
  const pulled: RecordState = {rows: []};
  const key = recordKey(account, id);
  const state = book.get(CREATIVES.name) ?? {accounts: [], records: {}};
  book.set(CREATIVES.name, {
    ...state,
    records: {...state.records, [key]: state.records[key] ?? pulled},
  });
}
