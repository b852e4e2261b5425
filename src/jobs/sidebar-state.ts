/**
 * What the sidebar shows that changes outside it: the last job run from the menu, the schedule
 * (Schedule > Turn off in the menu), the scheduled refresh's last run, and a job running now
 * that another execution started (the menu, the schedule's trigger). The sidebar cannot be
 * pushed to, so while it is visible it polls `pollSidebar` every few seconds; a poll must cost
 * next to nothing, so it is two CacheService reads (the state, the progress board). The state
 * is also kept in the user's properties, because a cache entry may vanish at any time: a miss
 * costs one property read, after which the cache holds it again.
 */
import type {JobProgress, Platform} from '../platform/ports';
import {EXECUTION_LIMIT_MS, JobSummary} from './run';

/** A job run from the menu, as the sidebar shows it. */
export interface LastJob {
  /** The menu's title for it: 'Push budgets (preview)'. */
  title: string;
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
}

const KEY = 'offerDesk.sidebarState.';
/** The longest CacheService keeps an entry. */
const CACHE_SECONDS = 6 * 60 * 60;
/** A property value holds at most 9 KB: room for the JSON around the summary. */
export const STATE_LIMIT = 8000;

const NOTHING: SidebarState = {version: 0, lastJob: null};

/** The state, from the cache when it holds it. */
export function readSidebarState(platform: Platform): SidebarState {
  const key = KEY + platform.documentId();
  const cached = platform.userCache.get(key);
  if (cached) return JSON.parse(cached) as SidebarState;
  const stored = platform.userProperties.get(key) ?? JSON.stringify(NOTHING);
  // "Nothing yet" is cached too, so a sidebar left open costs no property reads.
  platform.userCache.put(key, stored, CACHE_SECONDS);
  return JSON.parse(stored) as SidebarState;
}

export function pollSidebar(platform: Platform): SidebarPoll {
  return {...readSidebarState(platform), running: runningJob(platform)};
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

/** Records the job run from the menu; the sidebar shows it at its next poll. */
export function recordMenuJob(platform: Platform, job: LastJob): void {
  write(platform, readSidebarState(platform), bounded(job));
}

/** Tells the sidebar the schedule or its last run changed: it reloads them at its next poll. */
export function scheduleChanged(platform: Platform): void {
  const before = readSidebarState(platform);
  write(platform, before, before.lastJob);
}

function write(
  platform: Platform,
  before: SidebarState,
  lastJob: LastJob | null,
): void {
  const key = KEY + platform.documentId();
  // The clock, or one more when two changes share a millisecond: the version always moves.
  const version = Math.max(platform.clock.now(), before.version + 1);
  const value = JSON.stringify({version, lastJob} satisfies SidebarState);
  platform.userProperties.set(key, value);
  platform.userCache.put(key, value, CACHE_SECONDS);
}

/**
 * The job as it fits a property value: a preview's request bodies are left out (the sidebar
 * does not show them), then listed rows from the end, then the message is cut.
 */
function bounded(job: LastJob): LastJob {
  const fit: LastJob = {...job};
  if (fit.summary) {
    const summary: JobSummary = {...fit.summary};
    delete summary.wouldSend;
    fit.summary = summary;
    while (
      JSON.stringify(fit).length > STATE_LIMIT &&
      summary.problems.length > 0
    ) {
      summary.problems = summary.problems.slice(
        0,
        Math.floor(summary.problems.length / 2),
      );
    }
    if (JSON.stringify(fit).length > STATE_LIMIT) {
      summary.message = `${summary.message.slice(0, STATE_LIMIT / 4)}…`;
    }
  }
  if (fit.failure && fit.failure.length > STATE_LIMIT / 4) {
    fit.failure = `${fit.failure.slice(0, STATE_LIMIT / 4)}…`;
  }
  return fit;
}
