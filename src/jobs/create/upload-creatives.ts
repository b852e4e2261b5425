/**
 * Upload creative materials (step 1 of the offer creation chain, API 4.1): every Creatives row
 * with a `file` and no creative_md5 is read (Drive or https) and uploaded, each to its account
 * (its `account` cell, else the acting account's); the row gets the creative_md5 and
 * creative_name the API answers (upload-rows.ts). A row whose creative_md5 was copied from
 * another row with another file is INVALID, its file never uploaded in silence otherwise.
 *
 * A preview ({dryRun: true}) uploads nothing (upload-preview.ts). Rows with a creative_md5 are
 * left as they are.
 */
import type {Job, RunOptions} from '../kernel';
import type {Material} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {excerpt} from '../../rules/values';
import {ACCOUNT} from '../../sheets/accounts';
import {CREATIVES} from '../../sheets/schemas/creatives';
import {Table, cellOf, sheetRow} from '../../sheets/table';
import {RowWrites} from '../row-writes';
import {withJob} from '../kernel';
import type {JobSummary} from '../run';
import {typedAccount} from './row-account';
import {outOf} from './upload-context';
import {previewUploads} from './upload-preview';
import {uploadChanges, uploadRows} from './upload-rows';

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
