/**
 * Apps Script's write caching, as the latency model prices it. The Spreadsheet service keeps
 * the writes a script makes (values, formats, notes, validation, sizes, protection settings)
 * and sends them together with the next call that needs an answer from the document, at
 * SpreadsheetApp.flush(), or when the execution ends. Google's best-practices guide says so
 * ("write caching to save what is likely to be set ... alternating read and write commands
 * is slow"), and it is why a script that reads everything first and writes everything last is
 * fast: its writes cost one round trip between them, not one each.
 */

/**
 * - queued: a write; it answers nothing the script needs, so it waits for the next round trip.
 * - local: answered by the script's side alone (a Range is coordinates; a builder or the Ui
 *   handle is local: the Ui's own calls are priced as such).
 * - roundTrip: needs the document's answer (a read, a new sheet, a Protection): it first sends
 *   whatever writes are queued.
 */
export type SpreadsheetCallKind = 'queued' | 'local' | 'roundTrip';

/** Methods that only change the document. */
const WRITE =
  /^(Range|Sheet|Protection|Spreadsheet)\.(set|clear|insert(Rows|Columns)|delete(Rows|Columns)|hide|show|autoResize|appendRow|rename|remove|merge|breakApart|trimWhitespace|check|uncheck)/;

const LOCAL = new Set([
  'Sheet.getRange',
  'Range.offset',
  'Range.getCell',
  'SpreadsheetApp.newDataValidation',
  'SpreadsheetApp.getUi',
  'SpreadsheetApp.flush',
]);

/** The pseudo-call that sends the queued writes: one round trip, however many they are. */
export const SEND_QUEUED_WRITES = 'SpreadsheetApp.(queued writes sent)';

export function spreadsheetCallKind(key: string): SpreadsheetCallKind {
  if (LOCAL.has(key)) return 'local';
  if (WRITE.test(key)) return 'queued';
  return 'roundTrip';
}
