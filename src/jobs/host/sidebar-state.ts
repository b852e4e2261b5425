/**
 * What the sidebar shows that changes outside it: the last job run from the menu, the schedule
 * (Schedule > Turn off in the menu), the scheduled refresh's last run, and a job running now
 * that another execution started (the menu, the schedule's trigger, another editor). The
 * sidebar cannot be pushed to, so it polls `pollSidebar` (often while a job runs, seldom when
 * idle: src/ui/client/poll-plan.ts); a poll must cost next to nothing, so it is two
 * CacheService reads (the state in the user's cache, the progress board in the document's).
 * The state is also kept in the user's properties, because a cache entry may vanish at any
 * time: a miss costs one property read, after which the cache holds it again.
 */
import type {JobProgress, Platform} from '../../platform/ports';
import {JobName, jobSpec} from '../catalog';
import {failureMessage} from './menu-messages';
import {EXECUTION_LIMIT_MS, JobSummary} from '../run';
import {SettingsStore, STORE_FULL_NOTE, utf8Bytes} from '../settings-store';

/** The last job run from the menu or a sidebar, as the sidebar shows it. */
export interface LastJob {
  /** The menu's title for it: 'Push budgets (preview)'. */
  title: string;
  /** 'sidebar': run from a sidebar's button; absent: from the menu. */
  from?: 'sidebar';
  /** When it ended (ms since the epoch): tells one run from the next. */
  at: number;
  /** Its summary; absent when it could not run. */
  summary?: JobSummary;
  /** Why it could not run. */
  failure?: string;
}

export interface SidebarState {
  /** Changes whenever something the sidebar shows changed outside it; 0: nothing yet. */
  version: number;
  lastJob: LastJob | null;
}

/** The poll's answer: the state, and the job running in this spreadsheet now, if any. */
export interface SidebarPoll extends SidebarState {
  /** "done of total rows" of the running job, whoever started it; null when none runs. */
  running: JobProgress | null;
  /** When `seen` was last ticked in Alerts (onEdit): a change re-counts the alerts not seen. */
  alertsTicked: number | null;
}

const KEY = 'offerDesk.sidebarState.';
/** The longest CacheService keeps an entry. */
const CACHE_SECONDS = 6 * 60 * 60;
/** A property value holds at most 9 KB (UTF-8 bytes, key included): room for the JSON. */
export const STATE_LIMIT = 8000;

/** Said in a menu job's summary when the sidebar could not be told of it. */
export const NOT_RECORDED = `The open sidebar does not show this run: ${STORE_FULL_NOTE}.`;

const NOTHING: SidebarState = {version: 0, lastJob: null};

/** The state of this spreadsheet (or another's), from the cache when it holds it. */
export function readSidebarState(
  platform: Platform,
  documentId = platform.documentId(),
): SidebarState {
  const key = KEY + documentId;
  const cached = platform.userCache.get(key);
  if (cached) return JSON.parse(cached) as SidebarState;
  const stored =
    new SettingsStore(platform.userProperties).sidebarState(documentId) ??
    JSON.stringify(NOTHING);
  // "Nothing yet" is cached too, so a sidebar left open costs no property reads.
  platform.userCache.put(key, stored, CACHE_SECONDS);
  return JSON.parse(stored) as SidebarState;
}

export function pollSidebar(platform: Platform): SidebarPoll {
  return {
    ...readSidebarState(platform),
    running: runningJob(platform),
    alertsTicked: platform.progress.alertsTickedAt(),
  };
}

/**
 * The progress board's entry while its job still runs. A job's end removes it; a job Apps
 * Script cut off at its time limit could not, so an entry begun longer ago than an execution
 * may last is over.
 */
function runningJob(platform: Platform): JobProgress | null {
  const progress = platform.progress.read();
  if (!progress || progress.done >= progress.total) return null;
  const since = progress.since ?? progress.at;
  return platform.clock.now() - since > EXECUTION_LIMIT_MS ? null : progress;
}

/**
 * Runs a job a sidebar started and records how it ended, as a menu job's end is recorded: a
 * sidebar reloaded while the job ran (so its call's answer is lost) shows the result then. A
 * failure goes on to the sidebar's call as it is.
 */
export function runForSidebar(
  platform: Platform,
  job: JobName,
  preview: boolean,
  run: () => JobSummary,
): JobSummary {
  const title = `${jobSpec(job)?.title ?? job}${preview ? ' (preview)' : ''}`;
  const end = (ended: Pick<LastJob, 'summary' | 'failure'>) =>
    recordLastJob(platform, {
      title,
      at: platform.clock.now(),
      from: 'sidebar',
      ...ended,
    });
  let summary: JobSummary;
  try {
    summary = run();
  } catch (e) {
    end({failure: failureMessage(e)});
    throw e;
  }
  end({summary});
  return summary;
}

/**
 * Records the job run from the menu or a sidebar; an open sidebar shows it at its next poll.
 * False when the user's properties are full: the caller says so (NOT_RECORDED), the job
 * itself stands.
 */
export function recordLastJob(platform: Platform, job: LastJob): boolean {
  const documentId = platform.documentId();
  return write(
    platform,
    documentId,
    readSidebarState(platform, documentId),
    bounded(job),
  );
}

/**
 * Tells the sidebar of that spreadsheet (this one by default) that the schedule or its last
 * run changed: it reloads them at its next poll. False when it could not be remembered.
 */
export function scheduleChanged(
  platform: Platform,
  documentId = platform.documentId(),
): boolean {
  const before = readSidebarState(platform, documentId);
  return write(platform, documentId, before, before.lastJob);
}

function write(
  platform: Platform,
  documentId: string,
  before: SidebarState,
  lastJob: LastJob | null,
): boolean {
  // The clock, or one more when two changes share a millisecond: the version always moves.
  const version = Math.max(platform.clock.now(), before.version + 1);
  const value = JSON.stringify({version, lastJob} satisfies SidebarState);
  const kept = new SettingsStore(platform.userProperties).setSidebarState(
    documentId,
    value,
  );
  // The cache still tells an open sidebar, for as long as it keeps the entry.
  platform.userCache.put(KEY + documentId, value, CACHE_SECONDS);
  return kept;
}

/**
 * The job as it fits a property value: a preview's request bodies are left out (the sidebar
 * does not show them), then listed rows from the end, then the message is cut.
 */
function bounded(job: LastJob): LastJob {
  const fits = (candidate: LastJob) =>
    utf8Bytes(JSON.stringify(candidate)) <= STATE_LIMIT;
  const fit: LastJob = {...job};
  if (fit.summary) {
    const summary: JobSummary = {...fit.summary};
    delete summary.wouldSend;
    fit.summary = summary;
    while (!fits(fit) && summary.problems.length > 0) {
      summary.problems = summary.problems.slice(
        0,
        Math.floor(summary.problems.length / 2),
      );
    }
    summary.message = cutToFit(summary.message, message =>
      fits({...fit, summary: {...summary, message}}),
    );
  }
  if (fit.failure) {
    fit.failure = cutToFit(fit.failure, failure => fits({...fit, failure}));
  }
  return fit;
}

/** `text`, or its longest start (from 2,000 characters, halved) for which `fits` holds. */
function cutToFit(text: string, fits: (shown: string) => boolean): string {
  if (fits(text)) return text;
  for (
    let length = Math.min(text.length, STATE_LIMIT / 4);
    length > 0;
    length = Math.floor(length / 2)
  ) {
    const shown = `${text.slice(0, length)}…`;
    if (fits(shown)) return shown;
  }
  return '…';
}
