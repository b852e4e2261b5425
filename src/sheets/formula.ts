/**
 * Moving a user's formula with its row. When a refresh moves a record to another row, a
 * formula in a column the user added goes with it, and its relative row references move by
 * the same number of rows, as Sheets does when a row is copied: `=B5*2` moved from row 5 to
 * row 3 becomes `=B3*2`; `$B$5`, whole columns (`B:B`) and text in quotes stay as they are.
 */

// A cell reference: optional $ before the column letters and before the row number. It must
// not touch a name character on either side (LOG10( is a function, Sheet1 a name).
const REFERENCE =
  /(?<![A-Za-z0-9_.$])(\$?)([A-Za-z]{1,3})(\$?)([1-9][0-9]*)(?![A-Za-z0-9_(])/g;

/** The formula with every relative row reference moved by `delta` rows. */
export function shiftFormulaRows(formula: string, delta: number): string {
  if (delta === 0) return formula;
  // Split off string literals ("..." with "" as an escaped quote): references inside stay.
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(REFERENCE, (whole, colAbs, col, rowAbs, row) => {
            if (rowAbs === '$') return whole;
            const moved = Number(row) + delta;
            // A reference moved above row 1 is broken in Sheets too.
            return moved < 1 ? '#REF!' : `${colAbs}${col}${rowAbs}${moved}`;
          }),
    )
    .join('');
}
