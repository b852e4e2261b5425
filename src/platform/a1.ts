/** A1 notation, as Apps Script names ranges in a list (Sheet.getRangeList). */

/** The letter of a 0-based column: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** A block (1-based row and column) in A1 notation: E12:H15. */
export function a1Of(block: {
  row: number;
  column: number;
  rows: number;
  columns: number;
}): string {
  const left = columnLetter(block.column - 1);
  const right = columnLetter(block.column + block.columns - 2);
  return `${left}${block.row}:${right}${block.row + block.rows - 1}`;
}
