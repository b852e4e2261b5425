/**
 * The add-on menu and what a job run from it shows when it ends: a toast when all went well,
 * an alert listing the rows that need attention, or an alert with the reason it could not run.
 */
import type {Platform} from '../../platform/ports';
import {JobName, jobSpec} from '../catalog';
import {addonMenu} from './menu-entries';
import type {CreativeAdsQuery} from '../refresh/creative-ads';
import {attentionText, failureMessage} from './menu-messages';
import {JobSummary, needsAttention} from '../run';
import {NOT_RECORDED, recordLastJob} from './sidebar-state';

export const SIDEBAR_FILE = 'Sidebar';
export const ADDON_TITLE = 'Offer Desk';

/**
 * Builds the add-on menu from its static description and reads nothing else, so it is the same
 * in every AuthMode: in AuthMode.NONE (before the user enabled the add-on in this spreadsheet)
 * properties, caches and the spreadsheet itself are off limits.
 */
export function openMenu(platform: Platform): void {
  platform.ui.buildAddonMenu(addonMenu());
}

/** Where the menu opens the sidebar: at its top, or at the form a menu item names. */
export type SidebarPlace = 'later' | 'schedule';

/** The sidebar's element each place opens at (src/ui/sidebar.html). */
const PLACES: Record<SidebarPlace, string> = {
  later: 'later-heading',
  schedule: 'schedule-heading',
};

export function showSidebar(platform: Platform, place?: SidebarPlace): void {
  platform.ui.showSidebar(SIDEBAR_FILE, ADDON_TITLE, place && PLACES[place]);
}

/**
 * Runs a job for the menu and tells the user how it went, in the sheet and in an open sidebar
 * (recorded before the alert, which holds the execution until it is dismissed). The job has
 * returned, and its writes are sent, before an alert opens: writes still queued are not on
 * screen while it is open, and the rows behind it would contradict it.
 */
export function runFromMenu(
  platform: Platform,
  job: JobName,
  run: () => JobSummary,
  preview = false,
): void {
  const spec = jobSpec(job);
  const title = `${spec?.title ?? job}${preview ? ' (preview)' : ''}`;
  let summary: JobSummary;
  try {
    summary = run();
  } catch (e) {
    const failure = failureMessage(e);
    recordLastJob(platform, {title, at: platform.clock.now(), failure});
    platform.ui.alert(`${title}: not done`, failure);
    return;
  }
  if (!recordLastJob(platform, {title, at: platform.clock.now(), summary})) {
    summary = {...summary, message: `${summary.message} ${NOT_RECORDED}`};
  }
  if (needsAttention(summary)) {
    platform.workbook().flush();
    platform.ui.alert(title, attentionText(summary));
  } else {
    platform.ui.toast(title, summary.message);
  }
}

/** Runs a menu action that is not a job: a toast with its answer, or an alert with why not. */
export function runAction(
  platform: Platform,
  title: string,
  action: () => string,
): void {
  let answer: string;
  try {
    answer = action();
  } catch (e) {
    platform.ui.alert(`${title}: not done`, failureMessage(e));
    return;
  }
  platform.ui.toast(title, answer);
}

/**
 * Reads what the creative-ad list asks for: ids (digits and commas) or else a package name.
 * Undefined when nothing usable was typed.
 */
export function creativeAdsQuery(text: string): CreativeAdsQuery | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  if (/^[\d,\s]+$/.test(value)) {
    const ids = value.split(/[\s,]+/).filter(Boolean);
    return ids.length > 0 ? {adIds: ids.join(',')} : undefined;
  }
  return {packageName: value};
}

/** Asks for creative ad ids, then runs the list. */
export function runCreativeAdsFromMenu(
  platform: Platform,
  job: JobName,
  run: (q: CreativeAdsQuery) => JobSummary,
): void {
  const title = jobSpec(job)?.title ?? job;
  const answer = platform.ui.prompt(
    title,
    'Creative ad ids, comma-separated (for example 101,102):',
  );
  if (answer === null) return;
  const query = creativeAdsQuery(answer);
  if (!query) {
    platform.ui.alert(
      `${title}: not done`,
      'Nothing was typed: give creative ad ids.',
    );
    return;
  }
  runFromMenu(platform, job, () => run(query));
}
