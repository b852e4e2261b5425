/**
 * The current user's installable triggers in the current spreadsheet. An editor add-on may
 * hold one time-driven trigger per user per document, so callers remove before they create.
 */
import type {Triggers} from './ports';

function userTriggers(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(SpreadsheetApp.getActive());
}

export const appsScriptTriggers: Triggers = {
  find(handler) {
    return userTriggers()
      .filter(t => t.getHandlerFunction() === handler)
      .map(t => t.getUniqueId());
  },

  remove(id) {
    const trigger = userTriggers().find(t => t.getUniqueId() === id);
    if (trigger) ScriptApp.deleteTrigger(trigger);
  },

  createTimeDriven(handler, timing) {
    const clock = ScriptApp.newTrigger(handler).timeBased();
    if ('everyHours' in timing) {
      return clock.everyHours(timing.everyHours).create().getUniqueId();
    }
    const daily = clock.everyDays(1);
    if (timing.atHour === undefined) return daily.create().getUniqueId();
    // The hour the user picked is an hour of their spreadsheet's day, not of the add-on's.
    return daily
      .atHour(timing.atHour)
      .inTimezone(SpreadsheetApp.getActive().getSpreadsheetTimeZone())
      .create()
      .getUniqueId();
  },
};
