/** A block of cells, 1-based as in Apps Script. */
export interface Rect {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function a1Of(rect: Rect): string {
  const start = `${columnLetters(rect.column)}${rect.row}`;
  if (rect.numRows === 1 && rect.numColumns === 1) return start;
  const end = `${columnLetters(rect.column + rect.numColumns - 1)}${rect.row + rect.numRows - 1}`;
  return `${start}:${end}`;
}

interface Endpoint {
  column?: number;
  row?: number;
}

function endpoint(text: string): Endpoint | undefined {
  const m = /^\$?([A-Za-z]{1,3})?\$?(\d+)?$/.exec(text);
  if (!m || (!m[1] && !m[2])) return undefined;
  return {
    column: m[1] ? columnNumber(m[1]) : undefined,
    row: m[2] ? Number(m[2]) : undefined,
  };
}

/**
 * Parses 'B2', 'A1:C3', 'A:A', '2:5', 'A2:C' and an optional sheet prefix ('Sheet1!A1',
 * "'My sheet'!A1"). Open ends reach the sheet's edge. Undefined when the text is not A1 notation.
 */
export function parseA1(
  ref: string,
  maxRows: number,
  maxColumns: number,
): {sheetName?: string; rect: Rect} | undefined {
  const m = /^(?:'((?:[^']|'')+)'!|([^!']+)!)?([^!]+)$/.exec(ref.trim());
  if (!m) return undefined;
  const sheetName = m[1]?.replace(/''/g, "'") ?? m[2];
  const [first, second, extra] = m[3].split(':');
  if (extra !== undefined) return undefined;
  const a = endpoint(first);
  const b = second === undefined ? a : endpoint(second);
  if (!a || !b) return undefined;
  if (second === undefined && (a.column === undefined || a.row === undefined))
    return undefined;
  // A whole-row or whole-column reference needs the same kind on both ends.
  if (
    (a.column === undefined) !== (b.column === undefined) &&
    a.row === undefined
  ) {
    return undefined;
  }
  const c1 = a.column ?? 1;
  const c2 = b.column ?? maxColumns;
  const r1 = a.row ?? 1;
  const r2 = b.row ?? maxRows;
  if (c1 < 1 || c2 < 1 || r1 < 1 || r2 < 1) return undefined;
  return {
    sheetName,
    rect: {
      row: Math.min(r1, r2),
      column: Math.min(c1, c2),
      numRows: Math.abs(r2 - r1) + 1,
      numColumns: Math.abs(c2 - c1) + 1,
    },
  };
}
