/**
 * The catalog's jobs (src/jobs/catalog.ts: pure data below the jobs and the sidebar) checked
 * against the server's entry points (src/index.ts): a job whose function is renamed, or
 * takes other arguments, breaks the type check here, not the user's click. The menu and the
 * sidebar take their jobs from here.
 */
import type * as EntryPoints from '../index';
import {JOBS, JobSpec} from '../jobs/catalog';
import type {MenuFunction} from '../jobs/host/menu-entries';
import type {CreativeAdsQuery} from '../jobs/refresh/creative-ads';
import type {JobSummary} from '../jobs/run';

type Entry = typeof EntryPoints;
export type EntryPointName = keyof Entry;

/** Entry points that run a job with no input. */
type PlainJobName = {
  [K in EntryPointName]: Entry[K] extends () => JobSummary ? K : never;
}[EntryPointName];

/** Entry points that run a job which can preview: `{dryRun: true}` validates and sends nothing. */
type PreviewJobName = {
  [K in EntryPointName]: Entry[K] extends (options: {
    dryRun: boolean;
  }) => JobSummary
    ? K
    : never;
}[EntryPointName];

type AskingJobName = {
  [K in EntryPointName]: Entry[K] extends (q: CreativeAdsQuery) => JobSummary
    ? K
    : never;
}[EntryPointName];

/** A job of the catalog whose `fn` is an entry point of its kind. */
export type CheckedJob =
  | (Extract<JobSpec, {kind: 'plain'}> & {fn: PlainJobName})
  | (Extract<JobSpec, {kind: 'preview'}> & {fn: PreviewJobName})
  | (Extract<JobSpec, {kind: 'creativeAds'}> & {fn: AskingJobName});

/** Fails to compile unless T is true. */
type Assert<T extends true> = T;

/** Every function the add-on menu names is an entry point (the menu is built in src/jobs). */
export type MenuChecked = Assert<
  MenuFunction extends EntryPointName ? true : false
>;

/** The catalog, each job checked (this assignment is the check). */
export const CHECKED_JOBS: readonly CheckedJob[] = JOBS;

export function checkedJob(fn: string): CheckedJob | undefined {
  return CHECKED_JOBS.find(j => j.fn === fn);
}
