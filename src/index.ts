/**
 * The add-on's entry points: what Apps Script, the menu, triggers and the sidebar call by
 * name. Each forwards to its job with a fresh Apps Script platform; the build turns every export
 * here into a top-level function of dist/Code.js.
 */
import type {RunOptions} from './jobs/kernel';
import {withExecution} from './jobs/kernel';
import {scheduledTurn} from './jobs/scheduled/scheduled-turn';
import {appsScriptPlatform as platform} from './platform/apps-script';
import {editedBlock} from './platform/edit-event';
import * as editMark from './jobs/host/edit-mark';
import * as accountFilter from './jobs/host/account-filter';
import * as connectionTest from './jobs/host/connection-test';
import * as creativeAds from './jobs/refresh/creative-ads';
import * as filePicker from './jobs/create/file-picker';
import * as cloneDialog from './jobs/create/clone-dialog';
import * as cloneJob from './jobs/create/clone-offers';
import type {CreativeAdsQuery} from './jobs/refresh/creative-ads';
import type {ConnectionCheck} from './jobs/host/connection-test';
import * as historyList from './jobs/history/history-list';
import * as menu from './jobs/host/menu';
import {wordedForSidebar} from './jobs/host/menu-messages';
import * as offerWatch from './jobs/refresh/offer-watch';
import * as pushBudgetsJob from './jobs/push/push-budgets';
import * as pushCampaignsJob from './jobs/push/push-campaigns';
import * as pushTrackingJob from './jobs/push/push-tracking';
import * as refresh from './jobs/refresh/refresh';
import * as revert from './jobs/history/revert';
import {refreshAll as refreshAllJob} from './jobs/refresh/refresh-all';
import * as refreshCreativesJob from './jobs/refresh/refresh-creatives';
import * as refreshSubAccountsJob from './jobs/refresh/refresh-sub-accounts';
import * as uploadCreativesJob from './jobs/create/upload-creatives';
import * as createOffersJob from './jobs/create/create-offers';
import * as createSubAccountsJob from './jobs/create/create-sub-accounts';
import type {JobSummary} from './jobs/run';
import * as schedule from './jobs/host/schedule';
import * as scheduledPush from './jobs/scheduled/schedule-push';
import * as applyJob from './jobs/scheduled/apply';
import * as dueJob from './jobs/scheduled/due';
import * as waiting from './jobs/scheduled/waiting';
import type {ScheduledRun} from './jobs/settings-store';
import * as settings from './jobs/host/settings';
import * as sidebar from './jobs/host/sidebar';
import * as sidebarState from './jobs/host/sidebar-state';
import type {JobProgress, Platform} from './platform/ports';

/**
 * Each job of the catalog on a given platform. The entry points below run it on a fresh one;
 * the menu and the schedule on the platform of their own call, so one execution looks the
 * spreadsheet up once.
 */
const JOB_RUNS = {
  refreshCampaigns: (p, o) => refresh.refreshCampaigns(p, o),
  refreshOffers: (p, o?: RunOptions) => refresh.refreshOffers(p, o),
  refreshAll: (p, o?: RunOptions) => refreshAllJob(p, o),
  refreshCreatives: (p, o) => refreshCreativesJob.refreshCreatives(p, o),
  refreshSubAccounts: (p, o) => refreshSubAccountsJob.refreshSubAccounts(p, o),
  pushBudgets: (p, o) =>
    scheduledPush.isScheduling(o)
      ? scheduledPush.schedulePush(p, pushBudgetsJob.BUDGETS_PUSH, o!)
      : pushBudgetsJob.pushBudgets(p, o),
  pushCampaigns: (p, o) =>
    scheduledPush.isScheduling(o)
      ? scheduledPush.schedulePush(p, pushCampaignsJob.CAMPAIGNS_PUSH, o!)
      : pushCampaignsJob.pushCampaigns(p, o),
  pushTracking: (p, o) =>
    scheduledPush.isScheduling(o)
      ? scheduledPush.schedulePush(p, pushTrackingJob.trackingPushOf(p), o!)
      : pushTrackingJob.pushTracking(p, o),
  applyScheduledChanges: (p, o) => applyJob.applyScheduledChanges(p, o),
  uploadCreatives: (p, o) => uploadCreativesJob.uploadCreatives(p, o),
  createOffers: (p, o) => createOffersJob.createOffers(p, o),
  createSubAccounts: (p, o) => createSubAccountsJob.createSubAccounts(p, o),
} satisfies Record<string, (p: Platform, options?: RunOptions) => JobSummary>;

/** Runs what the sidebar calls on a fresh platform; a failure reads as it does from the menu. */
function fromSidebar<T>(run: (p: Platform) => T): T {
  return wordedForSidebar(() => run(platform()));
}

/** Runs a job of the catalog for the sidebar, recorded so that a reloaded sidebar shows it. */
function fromSidebarJob(
  job: keyof typeof JOB_RUNS,
  options?: RunOptions,
): JobSummary {
  return fromSidebar(p =>
    sidebarState.runForSidebar(p, job, options?.dryRun === true, () =>
      JOB_RUNS[job](p, options),
    ),
  );
}

/** Runs a job from the menu: its preview when `preview`. */
function fromMenu(job: keyof typeof JOB_RUNS, preview = false): void {
  const p = platform();
  menu.runFromMenu(
    p,
    job,
    () => JOB_RUNS[job](p, preview ? {dryRun: true} : undefined),
    preview,
  );
}

export function getSettings(): settings.SettingsView {
  return settings.getSettings(platform());
}

export function saveSettings(s: settings.SettingsForm): settings.SettingsView {
  return settings.saveSettings(platform(), s);
}

export function setActingAccount(name: string): settings.SettingsView {
  return settings.setActingAccount(platform(), name);
}

export function onOpen(): void {
  menu.openMenu(platform());
}

export function onInstall(): void {
  onOpen();
}

/** A person edited cells (a simple trigger: no authorization, 30 seconds). */
export function onEdit(e: unknown): void {
  const edit = editedBlock(e);
  if (edit) editMark.onEdit(platform(), edit);
}

export function showSidebar(): void {
  menu.showSidebar(platform());
}

/** Push > Push later…: the sidebar, at its Push later form. */
export function showPushLater(): void {
  menu.showSidebar(platform(), 'later');
}

/** Schedule > Choose a scheduled refresh…: the sidebar, at its schedule. */
export function showScheduleChoice(): void {
  menu.showSidebar(platform(), 'schedule');
}

/** "Choose files…": the Google Picker dialog (the sidebar's button and the menu). */
export function showFilePicker(): void {
  filePicker.showFilePicker(platform());
}

/** The Picker dialog's OAuth token (ScriptApp.getOAuthToken): never logged. */
export function getPickerToken(): string {
  return filePicker.pickerToken(platform());
}

/** The Picker dialog's callback: the picked files become Creatives rows. */
export function addPickedFiles(
  files: filePicker.PickedFile[],
): filePicker.PickedFilesResult {
  return filePicker.addPickedFiles(platform(), files);
}

/** Create > Clone selected offers…: the dialog (the sidebar's button and the menu). */
export function showCloneDialog(): void {
  cloneDialog.showCloneDialog(platform());
}

/** The clone dialog's offers (the rows selected in Offers) and accounts. */
export function getCloneChoices(): cloneDialog.CloneChoices {
  return fromSidebar(cloneDialog.cloneChoices);
}

/**
 * New Offers, Creative Sets and Creatives rows cloning each offer of `spec.from` into each
 * target of `spec.to` (DESIGN 4.6); sends no write. createOffers then creates them.
 */
export function cloneOffers(spec: cloneJob.CloneSpec): JobSummary {
  return fromSidebar(p => cloneJob.cloneOffers(p, spec));
}

export function testConnection(): ConnectionCheck {
  return connectionTest.testConnection(platform());
}

export function listActingAccounts(): sidebar.ActingAccounts {
  return sidebar.actingAccounts(platform());
}

/** Filters every record sheet to one account's rows; '*' shows them all again. */
export function showAccount(account: string): accountFilter.AccountShown {
  return fromSidebar(p => accountFilter.showAccount(p, account));
}

export function getProgress(): JobProgress | null {
  return sidebar.getProgress(platform());
}

export function selectRow(sheet: string, row: number): void {
  sidebar.selectRow(platform(), sheet, row);
}

/** The sidebar's poll: two cache reads while nothing changed. */
export function getSidebarState(): sidebarState.SidebarPoll {
  return sidebarState.pollSidebar(platform());
}

export function getSchedule(): schedule.ScheduleView {
  return schedule.getSchedule(platform());
}

export function setRefreshSchedule(
  hours: number,
  options?: schedule.ScheduleOptions,
): schedule.ScheduleView {
  return schedule.setRefreshSchedule(platform(), hours, options);
}

/** The trigger's handler: `e` is the time-driven event, whose triggerUid names the schedule. */
export function scheduledRefresh(e?: schedule.TriggerEvent): ScheduledRun {
  const p = platform();
  // One execution, one limit: the time budget counts from the start of the run.
  const startedAt = p.clock.now();
  return schedule.scheduledRefresh(
    p,
    job =>
      withExecution(
        p,
        within =>
          scheduledTurn(p, within, options => JOB_RUNS[job](p, options)),
        startedAt,
      ),
    e,
  );
}

/** Sends the scheduled changes that are due now (menu: Apply due changes now). */
export function applyScheduledChanges(): JobSummary {
  return fromSidebar(p => JOB_RUNS.applyScheduledChanges(p, undefined));
}

/** How many hours after its time a scheduled change may still go out (default 6). */
export function setScheduledGraceHours(hours: number | string): number {
  return fromSidebar(p => dueJob.setScheduledGraceHours(p, hours));
}

/** The sidebar's list of scheduled changes still waiting. */
export function listWaitingChanges(): waiting.WaitingChange[] {
  return fromSidebar(waiting.listWaiting);
}

/** Cancels a waiting change: its rows become CANCELLED; sends nothing. */
export function cancelScheduledChange(changeId: string): JobSummary {
  return fromSidebar(p => waiting.cancelScheduledChange(p, changeId));
}

export function menuApplyScheduledChanges(): void {
  fromMenu('applyScheduledChanges');
}

export function menuRefreshCampaigns(): void {
  fromMenu('refreshCampaigns');
}

export function menuRefreshOffers(): void {
  fromMenu('refreshOffers');
}

export function menuRefreshAll(): void {
  fromMenu('refreshAll');
}

export function menuPreviewPushBudgets(): void {
  fromMenu('pushBudgets', true);
}

export function menuPushBudgets(): void {
  fromMenu('pushBudgets');
}

export function menuPreviewPushCampaigns(): void {
  fromMenu('pushCampaigns', true);
}

export function menuPushCampaigns(): void {
  fromMenu('pushCampaigns');
}

export function menuPreviewPushTracking(): void {
  fromMenu('pushTracking', true);
}

export function menuPushTracking(): void {
  fromMenu('pushTracking');
}

export function menuRefreshCreatives(): void {
  fromMenu('refreshCreatives');
}

export function menuRefreshSubAccounts(): void {
  fromMenu('refreshSubAccounts');
}

export function menuPreviewUploadCreatives(): void {
  fromMenu('uploadCreatives', true);
}

export function menuUploadCreatives(): void {
  fromMenu('uploadCreatives');
}

export function menuPreviewCreateOffers(): void {
  fromMenu('createOffers', true);
}

export function menuCreateOffers(): void {
  fromMenu('createOffers');
}

export function menuPreviewCreateSubAccounts(): void {
  fromMenu('createSubAccounts', true);
}

export function menuCreateSubAccounts(): void {
  fromMenu('createSubAccounts');
}

export function menuListCreativeAds(): void {
  const p = platform();
  menu.runCreativeAdsFromMenu(p, 'listCreativeAds', q =>
    creativeAds.listCreativeAds(p, q),
  );
}

export function menuScheduleOff(): void {
  const p = platform();
  menu.runAction(p, 'Scheduled refresh', () => {
    schedule.setRefreshSchedule(p, 0);
    return 'Scheduled refresh is off for this spreadsheet.';
  });
}

export function refreshCampaigns(): JobSummary {
  return fromSidebarJob('refreshCampaigns');
}

export function refreshOffers(): JobSummary {
  return fromSidebarJob('refreshOffers');
}

export function refreshAll(): JobSummary {
  return fromSidebarJob('refreshAll');
}

export function listCreativeAds(q: CreativeAdsQuery): JobSummary {
  return fromSidebar(p =>
    sidebarState.runForSidebar(p, 'listCreativeAds', false, () =>
      creativeAds.listCreativeAds(p, q),
    ),
  );
}

export function pushBudgets(options?: RunOptions): JobSummary {
  return fromSidebarJob('pushBudgets', options);
}

export function pushCampaigns(options?: RunOptions): JobSummary {
  return fromSidebarJob('pushCampaigns', options);
}

export function pushTracking(options?: RunOptions): JobSummary {
  return fromSidebarJob('pushTracking', options);
}

export function refreshCreatives(): JobSummary {
  return fromSidebarJob('refreshCreatives');
}

export function refreshSubAccounts(): JobSummary {
  return fromSidebarJob('refreshSubAccounts');
}

export function uploadCreatives(options?: RunOptions): JobSummary {
  return fromSidebarJob('uploadCreatives', options);
}

export function createOffers(options?: RunOptions): JobSummary {
  return fromSidebarJob('createOffers', options);
}

/** The sidebar's New sub-account form: the password never reaches a cell. */
export function createSubAccount(name: string, password: string): JobSummary {
  return fromSidebar(p =>
    createSubAccountsJob.createSubAccount(p, name, password),
  );
}

export function createSubAccounts(options?: RunOptions): JobSummary {
  return fromSidebarJob('createSubAccounts', options);
}

/** The sidebar's Alerts count: Alerts rows whose seen cell is not ticked. */
export function countUnseenAlerts(): number {
  return offerWatch.unseenAlertCount(platform());
}

/** The sidebar's History list: the last runs that sent something. */
export function listChanges(): historyList.HistoryView {
  return fromSidebar(historyList.recentChanges);
}

/** How many History rows this spreadsheet keeps before archiving the oldest runs. */
export function setHistoryLimit(rows: number | string): number {
  return historyList.setHistoryLimit(platform(), rows);
}

/** Puts a change's before values back as unpushed edits; sends nothing. */
export function revertChange(changeId: string): JobSummary {
  return fromSidebar(p => revert.revertChange(p, changeId));
}
