import {parseEntry} from './cell';
import {FakeSheet} from './sheet';

/**
 * What a person typing `text` into one cell does: Sheets parses it ('111,112' becomes 111112,
 * 'TRUE' a boolean, '2026-01-02' a date) unless the cell is formatted as plain text, and data
 * validation that rejects input refuses it. Not a script call: nothing is counted or priced.
 */
export function typeIntoCell(sheet: FakeSheet, a1: string, text: string): void {
  const rect = sheet.rectFromArgs([a1], 'typeIntoCell');
  if (rect.numRows !== 1 || rect.numColumns !== 1) {
    throw new Error(`typeIntoCell types into one cell, not ${a1}`);
  }
  sheet.writeEntries(rect, [[text]], (v, cell) =>
    parseEntry(String(v), cell?.format),
  );
}
