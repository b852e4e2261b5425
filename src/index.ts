/**
 * The add-on's entry points: what Apps Script, the menu, triggers and the sidebar call by
 * name. Each forwards to its job with a fresh Apps Script platform; the build turns every export
 * here into a top-level function of dist/Code.js.
 */
import {appsScriptPlatform as platform} from './platform/apps-script';
import * as connectionTest from './jobs/connection-test';
import * as creativeAds from './jobs/creative-ads';
import type {CreativeAdsQuery} from './jobs/creative-ads';
import type {ConnectionCheck} from './jobs/connection-test';
import * as historyList from './jobs/history-list';
import * as menu from './jobs/menu';
import * as pushBudgetsJob from './jobs/push-budgets';
import * as pushCampaignsJob from './jobs/push-campaigns';
import type {PushOptions} from './jobs/push-spec';
import * as pushTrackingJob from './jobs/push-tracking';
import * as refresh from './jobs/refresh';
import * as revert from './jobs/revert';
import {refreshAll as refreshAllJob} from './jobs/refresh-all';
import * as refreshCreativesJob from './jobs/refresh-creatives';
import * as refreshSubAccountsJob from './jobs/refresh-sub-accounts';
import * as uploadCreativesJob from './jobs/upload-creatives';
import * as createOffersJob from './jobs/create-offers';
import * as createSubAccountsJob from './jobs/create-sub-accounts';
import type {JobSummary} from './jobs/run';
import * as schedule from './jobs/schedule';
import type {ScheduledRun} from './jobs/settings-store';
import * as settings from './jobs/settings';
import * as sidebar from './jobs/sidebar';
import * as sidebarState from './jobs/sidebar-state';
import type {JobProgress} from './platform/ports';
// The schedule runs an entry point by name, as the menu and the sidebar do.
import * as entryPoints from './index';

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

export function showSidebar(): void {
  menu.showSidebar(platform());
}

export function testConnection(): ConnectionCheck {
  return connectionTest.testConnection(platform());
}

export function listActingAccounts(): sidebar.ActingAccounts {
  return sidebar.actingAccounts(platform());
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

export function scheduledRefresh(): ScheduledRun {
  return schedule.scheduledRefresh(platform(), job => entryPoints[job]());
}

export function menuRefreshCampaigns(): void {
  menu.runFromMenu(platform(), 'refreshCampaigns', refreshCampaigns);
}

export function menuRefreshOffers(): void {
  menu.runFromMenu(platform(), 'refreshOffers', refreshOffers);
}

export function menuRefreshAll(): void {
  menu.runFromMenu(platform(), 'refreshAll', refreshAll);
}

export function menuPreviewPushBudgets(): void {
  menu.runFromMenu(
    platform(),
    'pushBudgets',
    () => pushBudgets({dryRun: true}),
    true,
  );
}

export function menuPushBudgets(): void {
  menu.runFromMenu(platform(), 'pushBudgets', () => pushBudgets());
}

export function menuPreviewPushCampaigns(): void {
  menu.runFromMenu(
    platform(),
    'pushCampaigns',
    () => pushCampaigns({dryRun: true}),
    true,
  );
}

export function menuPushCampaigns(): void {
  menu.runFromMenu(platform(), 'pushCampaigns', () => pushCampaigns());
}

export function menuPreviewPushTracking(): void {
  menu.runFromMenu(
    platform(),
    'pushTracking',
    () => pushTracking({dryRun: true}),
    true,
  );
}

export function menuPushTracking(): void {
  menu.runFromMenu(platform(), 'pushTracking', () => pushTracking());
}

export function menuRefreshCreatives(): void {
  menu.runFromMenu(platform(), 'refreshCreatives', refreshCreatives);
}

export function menuRefreshSubAccounts(): void {
  menu.runFromMenu(platform(), 'refreshSubAccounts', refreshSubAccounts);
}

export function menuPreviewUploadCreatives(): void {
  menu.runFromMenu(
    platform(),
    'uploadCreatives',
    () => uploadCreatives({dryRun: true}),
    true,
  );
}

export function menuUploadCreatives(): void {
  menu.runFromMenu(platform(), 'uploadCreatives', () => uploadCreatives());
}

export function menuPreviewCreateOffers(): void {
  menu.runFromMenu(
    platform(),
    'createOffers',
    () => createOffers({dryRun: true}),
    true,
  );
}

export function menuCreateOffers(): void {
  menu.runFromMenu(platform(), 'createOffers', () => createOffers());
}

export function menuPreviewCreateSubAccounts(): void {
  menu.runFromMenu(
    platform(),
    'createSubAccounts',
    () => createSubAccounts({dryRun: true}),
    true,
  );
}

export function menuCreateSubAccounts(): void {
  menu.runFromMenu(platform(), 'createSubAccounts', () => createSubAccounts());
}

export function menuListCreativeAds(): void {
  menu.runCreativeAdsFromMenu(platform(), 'listCreativeAds', listCreativeAds);
}

export function menuScheduleOff(): void {
  menu.runAction(platform(), 'Scheduled refresh', () => {
    setRefreshSchedule(0);
    return 'Scheduled refresh is off for this spreadsheet.';
  });
}

export function refreshCampaigns(): JobSummary {
  return refresh.refreshCampaigns(platform());
}

export function refreshOffers(): JobSummary {
  return refresh.refreshOffers(platform());
}

export function refreshAll(): JobSummary {
  return refreshAllJob(platform());
}

export function listCreativeAds(q: CreativeAdsQuery): JobSummary {
  return creativeAds.listCreativeAds(platform(), q);
}

export function pushBudgets(options?: PushOptions): JobSummary {
  return pushBudgetsJob.pushBudgets(platform(), options);
}

export function pushCampaigns(options?: PushOptions): JobSummary {
  return pushCampaignsJob.pushCampaigns(platform(), options);
}

export function pushTracking(options?: PushOptions): JobSummary {
  return pushTrackingJob.pushTracking(platform(), options);
}

export function refreshCreatives(): JobSummary {
  return refreshCreativesJob.refreshCreatives(platform());
}

export function refreshSubAccounts(): JobSummary {
  return refreshSubAccountsJob.refreshSubAccounts(platform());
}

export function uploadCreatives(options?: PushOptions): JobSummary {
  return uploadCreativesJob.uploadCreatives(platform(), options);
}

export function createOffers(options?: PushOptions): JobSummary {
  return createOffersJob.createOffers(platform(), options);
}

/** The sidebar's New sub-account form: the password never reaches a cell. */
export function createSubAccount(name: string, password: string): JobSummary {
  return createSubAccountsJob.createSubAccount(platform(), name, password);
}

export function createSubAccounts(options?: PushOptions): JobSummary {
  return createSubAccountsJob.createSubAccounts(platform(), options);
}

/** The sidebar's History list: the last runs that sent something. */
export function listChanges(): historyList.HistoryView {
  return historyList.recentChanges(platform());
}

/** How many History rows this spreadsheet keeps before archiving the oldest runs. */
export function setHistoryLimit(rows: number | string): number {
  return historyList.setHistoryLimit(platform(), rows);
}

/** Puts a change's before values back as unpushed edits; sends nothing. */
export function revertChange(changeId: string): JobSummary {
  return revert.revertChange(platform(), changeId);
}
