/**
 * The add-on's entry points: what Apps Script, the menu, triggers and the sidebar call by
 * name. Each forwards to its job with the Apps Script platform; the build turns every export
 * here into a top-level function of dist/Code.js.
 */
import {appsScriptPlatform as platform} from './platform/apps-script';
import * as settings from './jobs/settings';
import type {SettingsInput} from './rules/settings';

export function getSettings(): settings.SettingsView {
  return settings.getSettings(platform);
}

export function saveSettings(s: SettingsInput): settings.SettingsView {
  return settings.saveSettings(platform, s);
}

export function setActingAccount(name: string): settings.SettingsView {
  return settings.setActingAccount(platform, name);
}
