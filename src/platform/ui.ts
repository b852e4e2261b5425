/**
 * The user interface over SpreadsheetApp.getUi(), toasts and the selection. Apps Script refuses
 * these calls in a trigger (no one is looking), so only executions a user started use them.
 */
import type {UserInterface} from './ports';
import type {ActiveDocument} from './spreadsheet';

/** Long enough to read a summary line; the alert carries anything longer. */
const TOAST_SECONDS = 10;

/** The user interface of `document`, the execution's spreadsheet (looked up once for all). */
export const appsScriptUi = (document: ActiveDocument): UserInterface => ({
  buildAddonMenu(entries) {
    const ui = SpreadsheetApp.getUi();
    const menu = ui.createAddonMenu();
    for (const entry of entries) {
      if (entry === 'separator') {
        menu.addSeparator();
      } else if ('items' in entry) {
        const sub = ui.createMenu(entry.caption);
        for (const item of entry.items)
          sub.addItem(item.caption, item.functionName);
        menu.addSubMenu(sub);
      } else {
        menu.addItem(entry.caption, entry.functionName);
      }
    }
    menu.addToUi();
  },

  toast(title, message) {
    document.spreadsheet().toast(message, title, TOAST_SECONDS);
  },

  alert(title, message) {
    const ui = SpreadsheetApp.getUi();
    ui.alert(title, message, ui.ButtonSet.OK);
  },

  confirm(title, message) {
    let ui: GoogleAppsScript.Base.Ui;
    try {
      ui = SpreadsheetApp.getUi();
    } catch {
      return null; // a trigger: Apps Script has no one to show a dialog to
    }
    // CLOSE (the dialog's x) is no yes.
    return ui.alert(title, message, ui.ButtonSet.YES_NO) === ui.Button.YES;
  },

  prompt(title, message) {
    const ui = SpreadsheetApp.getUi();
    const response = ui.prompt(title, message, ui.ButtonSet.OK_CANCEL);
    return response.getSelectedButton() === ui.Button.OK
      ? response.getResponseText()
      : null;
  },

  showSidebar(file, title, openAt) {
    const output = HtmlService.createHtmlOutputFromFile(file).setTitle(title);
    // An id of the page: letters, digits and dashes, so nothing typed reaches the markup.
    if (openAt && /^[\w-]+$/.test(openAt))
      output.append(`<meta name="open-at" content="${openAt}">`);
    SpreadsheetApp.getUi().showSidebar(output);
  },

  showDialog(file, title, width, height) {
    SpreadsheetApp.getUi().showModalDialog(
      HtmlService.createHtmlOutputFromFile(file)
        .setWidth(width)
        .setHeight(height),
      title,
    );
  },

  selectedRows(sheetName) {
    const spreadsheet = document.spreadsheet();
    const range = spreadsheet.getActiveRange();
    if (!range || range.getSheet().getName() !== sheetName) return [];
    const first = Math.max(2, range.getRow());
    const last = range.getLastRow();
    return Array.from(
      {length: Math.max(0, last - first + 1)},
      (_, i) => first + i,
    );
  },

  selectRow(sheetName, row) {
    const sheet = document.spreadsheet().getSheetByName(sheetName);
    if (!sheet) return false;
    sheet.activate();
    sheet.getRange(row, 1, 1, Math.max(1, sheet.getLastColumn())).activate();
    return true;
  },
});
