/**
 * What every preview shares (the pushes and the create jobs): its summary. A preview checks
 * what the real run would send, marks each row that would be sent EDITED "Preview: …" and
 * each refused row INVALID with its reason, and sends nothing that changes anything.
 */
import {counted} from '../text/wording';
import type {JobSummary} from './run';

/** What a preview found, beyond the counts every summary has. */
export interface PreviewFacts {
  /** The sheet whose sync_message says why a row is INVALID. */
  sheet: string;
  /** Rows the run would send (marked EDITED). */
  edited: number;
  /** Requests the run would send: those that change something, and a create's name lookups. */
  requests: number;
  /** The bodies of those requests that are known before anything is sent. */
  wouldSend: unknown[];
}

export function previewSummary(
  counts: Omit<JobSummary, 'message' | 'dryRun' | 'edited' | 'wouldSend'>,
  facts: PreviewFacts,
): JobSummary {
  const invalid =
    counts.invalid > 0
      ? `; ${counted(counts.invalid, 'row')} INVALID: see sync_message in ${facts.sheet}`
      : '';
  return {
    ...counts,
    dryRun: true,
    edited: facts.edited,
    wouldSend: facts.wouldSend,
    message: `Preview (nothing sent): ${counted(facts.edited, 'row')} would be sent in ${counted(facts.requests, 'request')}${invalid} (${counts.account}).`,
  };
}
