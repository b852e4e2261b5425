/**
 * What one upload run is given (who signs, which files, whose each row's material is, where its
 * uploads are posted before they leave) and what it answers, row by row.
 */
import type {ApiClient} from '../../api/client';
import type {Material} from '../../api/types';
import type {Digest, FileSource} from '../../platform/ports';
import type {CodecContext} from '../../sheets/codec';
import type {Outbox} from '../../state/outbox';
import type {StateBook} from '../../state/book';
import type {Job} from '../kernel';
import type {RowWrites} from '../row-writes';
import type {TimeBudget} from '../run';
import {fileText} from './upload-files';
import type {MaterialVerdict, Unnamed} from './upload-verdicts';

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

/**
 * The account each row uploads to (by its Creatives data row), the state book that remembers
 * whose materials are whose, the codec's.
 */
export interface MaterialOwner {
  accountOf(index: number): string;
  book: StateBook;
  context: CodecContext;
}

/** One upload run as it goes: the report so far and the rows the answer named by md5 only. */
export interface UploadRun {
  context: UploadContext;
  report: UploadReport;
  unnamed: Unnamed[];
}

/** Where a job's uploads are posted before they leave. */
export function outOf(job: Job): UploadContext['out'] {
  return {
    outbox: job.outbox,
    job: job.name,
    now: () => job.platform.clock.now(),
  };
}

/** The outbox entry of a row's upload: its file, to its account. */
export function uploadKey(context: UploadContext, index: number) {
  return {
    kind: 'upload' as const,
    account: context.owner.accountOf(index),
    record: fileText(context.writes.table, index),
  };
}
