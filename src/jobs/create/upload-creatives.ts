/**
 * Upload creative materials (step 1 of the offer creation chain, API 4.1): every Creatives row
 * with a `file` and no creative_md5 is read (Drive or https) and uploaded; the row gets the
 * creative_md5 and creative_name the API answers. An `already existed` answer carries the
 * material's md5 and name, which are filled in just the same (part 1, rule 3); where the answer
 * names an md5 but no name that can be read without guessing, the md5s of all such rows are
 * looked up together (creatives/source) and the row gets the name the server lists, or says
 * that it could not. The same one look-up fills every uploaded row's creative_type,
 * resolution and size (which the upload answer leaves out), so no refresh is needed for them.
 *
 * Files are first inspected (Drive's metadata of a batch of rows in one fetchAll: name, type,
 * size), so a file that cannot be uploaded is refused before a byte of it is read; the others
 * are read and sent in batches small enough for Apps Script's memory and UrlFetchApp's 50 MB
 * per request. Each batch's uploads are posted to the outbox (state/outbox.ts) and saved
 * before it goes out, and each answer settles its own; a file whose upload is still in the
 * outbox (its answer lost, or the run stopped while it was out) has its md5 looked up first
 * (one creatives/source request for the batch): one the server stored then is filled in, not
 * sent again. A row whose file cannot be read is INVALID (not picked, too large, not a
 * material) or ERROR (not reachable now), and nothing is sent for it.
 *
 * A preview ({dryRun: true}) uploads nothing: each row to upload gets its cell checked and, for
 * a Drive file, its metadata asked (which file, how large, of what type: Drive is asked, the
 * API is not); a file at an https link is not fetched, and its row says the run reads it at
 * upload time. Rows with a creative_md5 are left as they are.
 */
import type {Job, RunOptions} from '../kernel';
import type {ApiClient, Outcome} from '../../api/client';
import {OutcomeUnknownError} from '../../api/errors';
import {
  MAX_LIMIT,
  materialsListing,
  uploadMaterials,
} from '../../api/operations';
import {listEach} from '../../api/paging';
import type {Material, UploadedMaterial} from '../../api/types';
import type {
  FileBlob,
  FileFacts,
  FileRef,
  FileSource,
  FileWanted,
  Digest,
  Platform,
} from '../../platform/ports';
import {
  MAX_MATERIAL_BYTES,
  materialTypeProblem,
  readFileCell,
} from '../../rules/creative';
import {excerpt} from '../../rules/values';
import {CodecContext, canonical, encode} from '../../sheets/codec';
import type {HistoryChange} from '../../sheets/history';
import {ACCOUNT, accountCell, recordKey} from '../../sheets/accounts';
import {columnOf} from '../../sheets/rows';
import {CREATIVES} from '../../sheets/schemas/creatives';
import type {RecordState} from '../../sheets/pulled';
import type {Outbox, OutboxEntry} from '../../state/outbox';
import type {StateBook} from '../../state/book';
import type {SyncStatus} from '../../sheets/status';
import {SYNC_STATUS} from '../../sheets/schema';
import {Table, cellOf, sheetRow} from '../../sheets/table';
import {counted} from '../../text/wording';
import {RowWrites} from '../row-writes';
import {withJob} from '../kernel';
import type {JobSummary, TimeBudget} from '../run';
import {urlWhitelistProblem} from '../url-whitelist';
import {typedAccount} from './row-account';

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
  /** The upload was sent and no answer proved what happened. */
  unknown?: true;
}

export interface UploadContext {
  /** The client that signs as an account ('' the main account): Connected.clientFor. */
  clientFor(account: string): ApiClient;
  files: FileSource;
  /** Computes a file's md5, looked up before its bytes are sent. */
  digest: Digest;
  writes: RowWrites<Material>;
  budget: TimeBudget;
  /** Whose each row's material is: its upload is signed by that account, and remembered as its. */
  owner: MaterialOwner;
  /** The outbox a batch is posted to before it goes out, the job that posts it, the time. */
  out: {outbox: Outbox; job: string; now(): number};
  /** Called before a batch goes out, posted to the outbox: the job saves the state book. */
  sending?: () => void;
  /**
   * Called with the rows whose outcome a batch settled, as soon as it did: the job saves them
   * (rows, History) before the next batch.
   */
  settled?: (report: UploadReport, rows: number[]) => void;
}

export interface UploadReport {
  verdicts: Map<number, MaterialVerdict>;
  /** Rows whose file was sent, in order. */
  sent: number[];
  /** Rows whose file the server had already (its md5 listed): nothing was sent for them. */
  found: number[];
  /** Rows not reached for lack of time. */
  remaining: number[];
  requests: number;
}

interface Ready {
  index: number;
  blob: FileBlob;
}

/**
 * The account each row uploads to (by its Creatives data row), the state book that remembers
 * whose materials are whose, the codec's.
 */
export interface MaterialOwner {
  accountOf(index: number): string;
  book: StateBook;
  context: CodecContext;
}

/** A row whose `already existed` answer named its md5 but no name. */
interface Unnamed {
  index: number;
  md5: string;
  /** The answer's text that says `already existed`. */
  answer: string;
}

/**
 * The memo of the files of the batch out (their cells) of the release before the outbox: read
 * into the outbox once (earlierUploads).
 */
const UPLOADS_OUT = 'uploads out';

/** A row's file cell, as an upload's outbox entry names it. */
const fileText = (table: Table<Material>, index: number) =>
  String(cellOf(table, index, 'file')).trim();

/** Longest excerpt of an API text that a row's message quotes. */
const MSG_EXCERPT = 120;

/** One upload run as it goes: the report so far and the rows the answer named by md5 only. */
interface UploadRun {
  context: UploadContext;
  report: UploadReport;
  unnamed: Unnamed[];
}

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

/** The outbox entry of a row's upload: its file, to its account. */
function uploadKey(context: UploadContext, index: number) {
  return {
    kind: 'upload' as const,
    account: context.owner.accountOf(index),
    record: fileText(context.writes.table, index),
  };
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

/**
 * What one upload answer says of its row; an md5 without a name is left for the look-up by
 * md5 to name, not guessed from the answer's text.
 */
function readAnswer(
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

/** What the upload answer leaves out, filled from the material as the server lists it. */
const DETAILS = [
  'creative_type',
  'resolution',
  'size',
  'language',
  'platform',
] as const;

function fillDetails(
  writes: RowWrites<Material>,
  index: number,
  material: Material,
): void {
  for (const header of DETAILS) {
    const column = columnOf(writes.table, header);
    writes.set(index, header, encode(column, material[header] ?? null));
  }
}

/** The materials creatives/source lists for `md5s`, or why the look-up failed. */
interface Md5Lookup {
  /** By lowercase md5; undefined when the look-up failed. */
  listed?: Map<string, Material>;
  failure?: Error;
  requests: number;
}

/**
 * Looks the md5s up in creatives/source (4.9), each in the materials of its account (signed by
 * it), at most 200 per request, all requests of all accounts in one batch: the upload answer
 * names a material's md5 and name at most, the list gives its type, resolution and size (and
 * the name an `already existed` answer left out). It runs even when the time budget is spent:
 * it is one read, bounded by the retry deadline, and without it the uploads just answered
 * would be lost. One account's failed look-up is that account's alone. Answers by account.
 */
function listByMd5(
  clientFor: (account: string) => ApiClient,
  wanted: ReadonlyArray<{account: string; md5: string}>,
): Map<string, Md5Lookup> {
  const byAccount = new Map<string, Set<string>>();
  for (const {account, md5} of wanted) {
    byAccount.set(account, (byAccount.get(account) ?? new Set()).add(md5));
  }
  const chunks: Array<{account: string; md5s: string[]}> = [];
  for (const [account, set] of byAccount) {
    const md5s = [...set];
    for (let i = 0; i < md5s.length; i += MAX_LIMIT.materials) {
      chunks.push({account, md5s: md5s.slice(i, i + MAX_LIMIT.materials)});
    }
  }
  const results = listEach<Material>(
    chunks.map(({account, md5s}) => ({
      ...materialsListing(clientFor(account), {creative_md5: md5s}),
      isolated: true,
    })),
  );
  const lookups = new Map<string, Md5Lookup>();
  chunks.forEach(({account}, k) => {
    const lookup: Md5Lookup = lookups.get(account) ?? {
      listed: new Map(),
      requests: 0,
    };
    const {items, failed, requests} = results[k];
    lookup.requests += requests;
    if (failed) lookup.failure = failed;
    for (const m of items)
      lookup.listed!.set(String(m.creative_md5).toLowerCase(), m);
    lookups.set(account, lookup);
  });
  for (const lookup of lookups.values()) {
    if (lookup.failure) delete lookup.listed;
  }
  return lookups;
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
 * The rows whose `already existed` answer named no name get the one the server lists in
 * their account (`lookupOf` a row).
 */
function nameByMd5(
  rows: readonly Unnamed[],
  lookupOf: (index: number) => Md5Lookup,
  table: Table<Material>,
): Map<number, MaterialVerdict> {
  const verdicts = new Map<number, MaterialVerdict>();
  const said = (row: Unnamed) =>
    `The API answered ${quoted(row.answer)}: material ${row.md5} is already on the server`;
  for (const row of rows) {
    const {listed, failure} = lookupOf(row.index);
    if (!listed) {
      verdicts.set(row.index, {
        status: 'ERROR',
        message: `${said(row)}, but looking up its creative_name failed (${failure?.message}), so nothing was filled in. Run Upload creative materials again.`,
      });
      continue;
    }
    const name = listed.get(row.md5)?.creative_name;
    verdicts.set(
      row.index,
      name === undefined
        ? {
            status: 'ERROR',
            message: `${said(row)}, but creatives/source does not list that md5, so its creative_name is unknown and nothing was filled in. Run Refresh creative materials and use the material's own row if it appears; otherwise run Upload creative materials again later.`,
          }
        : onServer(
            table,
            row.index,
            row.md5,
            String(name),
            `Already on the server (the API answered ${quoted(row.answer)}, naming no creative_name, so the md5 was looked up): creative_md5 ${row.md5} and creative_name ${name} filled in.`,
          ),
    );
  }
  return verdicts;
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

const invalid = (why: string): MaterialVerdict => ({
  status: 'INVALID',
  message: `file ${why}. Nothing was uploaded.`,
});

/** Where the row's file is, or why it cannot be read: the checks that need no request. */
function fileOf(
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
interface Inspected {
  index: number;
  facts: FileFacts;
}

/**
 * The rows' files inspected together (for Drive files, one batch of metadata requests): the
 * rows whose file may be read, and a verdict for each row whose file may not.
 */
function inspectRows(
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

function refusal(problem: string, reason: string): MaterialVerdict {
  return {
    status: problem === 'unreachable' ? 'ERROR' : 'INVALID',
    message: `file: ${reason}. Nothing was uploaded.`,
  };
}

/** The inspected files read together: each a blob ready to send, or why it cannot be sent. */
function readMaterials(
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
function uploadGroups(rows: readonly Inspected[]): Inspected[][] {
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

/** The material is on the server as `md5` and `name`; `head` says how that is known. */
function onServer(
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
function quoted(text: string): string {
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

/**
 * What a run would upload, row by row, sending nothing: each row EDITED with the file it
 * uploads, or INVALID / ERROR as the run would mark it. Answers the upload bodies, each
 * naming its file. Near the time limit no more Drive files are read: their rows say the run
 * reads them, rather than the execution being killed with nothing written.
 */
function previewUploads(
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

export function uploadCreatives(
  platform: Platform,
  options: RunOptions = {},
): JobSummary {
  return withJob(platform, JOB, options, job => {
    const writes = job.rows(CREATIVES);
    const {table} = writes;
    const accounts = uploadAccounts(writes, job.connected.account);
    const pending = [...accounts.keys()];
    for (const [index, message] of copiedMd5s(table))
      writes.status(index, 'INVALID', message);
    return job.dryRun
      ? previewJob(platform, job, writes, pending)
      : uploadJob(platform, job, writes, accounts);
  });
}

/**
 * The rows to upload, each with the account it is uploaded to: its `account` cell's, else the
 * acting account's. A row whose cell names no account is INVALID, naming the column.
 */
function uploadAccounts(
  writes: RowWrites<Material>,
  acting: string,
): Map<number, string> {
  const {table} = writes;
  const accounts = new Map<number, string>();
  table.values.forEach((_, i) => {
    if (!CREATIVES.awaitsCreation!(h => cellOf(table, i, h))) return;
    const owner = typedAccount(
      cellOf(table, i, ACCOUNT),
      acting,
      'uploads the material',
    );
    if ('account' in owner) accounts.set(i, owner.account);
    else writes.status(i, 'INVALID', `${owner.problem}. Nothing was uploaded.`);
  });
  return accounts;
}

/**
 * Rows whose creative_md5 is also an earlier row's, with another file: a copied row keeps the
 * md5 of the file it was copied from, so its own file would never be uploaded, in silence. The
 * first row keeps its status; should the copy be that one, clearing the other's md5 uploads it
 * again ("already existed"), and the next run names the first.
 */
function copiedMd5s(table: Table<Material>): Map<number, string> {
  const text = (i: number, h: string) => String(cellOf(table, i, h)).trim();
  const first = new Map<string, number>();
  const refused = new Map<number, string>();
  table.values.forEach((_, i) => {
    const md5 = text(i, 'creative_md5').toLowerCase();
    const file = text(i, 'file');
    if (md5 === '' || file === '') return;
    const earlier = first.get(md5);
    if (earlier === undefined) first.set(md5, i);
    else if (text(earlier, 'file') !== file) {
      refused.set(
        i,
        `creative_md5 ${md5} is that of row ${sheetRow(earlier)}, whose file is ${excerpt(text(earlier, 'file'))}: a copied row keeps the md5 of the file it was copied from, so this row's file was not uploaded. Clear creative_md5 here (and creative_name, if it is the other file's) to upload it, or delete the row. Nothing was uploaded.`,
      );
    }
  });
  return refused;
}

/** The preview of uploadCreatives: the rows `pending` checked, nothing uploaded. */
function previewJob(
  platform: Platform,
  job: Job,
  writes: RowWrites<Material>,
  pending: readonly number[],
): JobSummary {
  const {table} = writes;
  const wouldSend = previewUploads(platform.files, writes, pending, job.budget);
  return job.summary({
    ...writes.tally(),
    // Rows with a file that are already on the server: the run leaves them alone.
    skipped: table.values.filter(
      (_, i) =>
        String(cellOf(table, i, 'file')).trim() !== '' &&
        String(cellOf(table, i, 'creative_md5')).trim() !== '',
    ).length,
    edited: writes.count('EDITED'),
    wouldSend,
  });
}

/** Where a job's uploads are posted before they leave. */
export function outOf(job: Job): UploadContext['out'] {
  return {
    outbox: job.outbox,
    job: job.name,
    now: () => job.platform.clock.now(),
  };
}

/**
 * The run of uploadCreatives: the rows `accounts` names uploaded, each to its account, each
 * batch saved as it settles.
 */
function uploadJob(
  platform: Platform,
  job: Job,
  writes: RowWrites<Material>,
  accounts: ReadonlyMap<number, string>,
): JobSummary {
  const pending = [...accounts.keys()];
  platform.progress.report(JOB, 0, pending.length);
  const report = uploadRows(
    {
      clientFor: account => job.connected.clientFor(account),
      files: platform.files,
      digest: platform.digest,
      writes,
      budget: job.budget,
      owner: {
        accountOf: index => accounts.get(index)!,
        book: job.book,
        context: job.workbook,
      },
      out: outOf(job),
      sending: () => job.saveState(),
      settled: (sofar, rows) => {
        job.log.add(uploadChanges(writes.table, sofar, rows));
        job.save();
      },
    },
    pending,
  );
  for (const index of report.remaining) {
    writes.status(
      index,
      'EDITED',
      'Not uploaded yet: the time ran out. Run Upload creative materials again to continue.',
    );
  }
  platform.progress.report(JOB, pending.length, pending.length);
  return job.summary({
    ...writes.tally(),
    accounts: writes.countByAccount('OK', i => accounts.get(i)),
    skipped: 0,
    remaining: report.remaining.length,
    requests: report.requests,
    message:
      pending.length === 0 && writes.count('INVALID') === 0
        ? `Nothing to upload (${job.account}): add rows to Creatives with a file (a Drive file id or link, or an https link) and no creative_md5.`
        : undefined,
  });
}

const JOB = 'uploadCreatives';
