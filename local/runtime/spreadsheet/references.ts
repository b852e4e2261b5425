import {columnLetters} from './a1';
import {referencesIn, RefEnd, WrittenRef} from './formula';

/**
 * How formulas follow cells that move, as in Sheets. Rows or columns inserted or deleted move
 * every reference into the sheet that changed (relative and absolute alike, from any sheet):
 * inserted ones push references down or right, a reference into deleted ones becomes #REF!
 * (`=F4*10` over a deleted row 4 becomes `=#REF!*10`), a range partly deleted shrinks. A cell
 * moved by a sort is a copy: its own relative references move with it, absolute ones stay.
 */

export type Axis = 'rows' | 'columns';

/** Rows or columns inserted (count > 0) or deleted (count < 0) at index `at` (1-based). */
export interface StructureChange {
  axis: Axis;
  at: number;
  count: number;
}

const LOST = '#REF!';

/**
 * A formula after `change` in a sheet; `pointsIntoChanged` tells which of its references name
 * that sheet. The same string comes back when no reference moves.
 */
export function followStructure(
  formula: string,
  pointsIntoChanged: (ref: WrittenRef) => boolean,
  change: StructureChange,
): string {
  return rewrite(formula, ref => {
    if (!pointsIntoChanged(ref)) return ref;
    // A whole column (A:A) spans every row: row changes leave it as it is.
    if (change.axis === 'rows' && ref.from.row === undefined) return ref;
    return change.count > 0
      ? moveEnds(ref, end => shift(end, change.axis, change.at, change.count))
      : shrink(ref, change.axis, change.at, -change.count);
  });
}

/** A formula copied `rows` down and `columns` right: relative references move, fixed ones stay. */
export function followCopy(
  formula: string,
  rows: number,
  columns: number,
): string {
  if (rows === 0 && columns === 0) return formula;
  return rewrite(formula, ref =>
    moveEnds(ref, end => {
      const row =
        end.row === undefined || end.rowFixed ? end.row : end.row + rows;
      const column = end.columnFixed ? end.column : end.column + columns;
      if (column < 1 || (row !== undefined && row < 1)) return undefined;
      return {...end, row, column};
    }),
  );
}

/** Rewrites each reference `move` changes; an undefined answer writes #REF! in its place. */
function rewrite(
  formula: string,
  move: (ref: WrittenRef) => WrittenRef | undefined,
): string {
  const refs = referencesIn(formula);
  if (!refs) return formula;
  let out = '';
  let at = 0;
  for (const ref of refs) {
    const moved = move(ref);
    if (moved === ref) continue;
    out += formula.slice(at, ref.start) + (moved ? written(moved) : LOST);
    at = ref.end;
  }
  return at === 0 ? formula : out + formula.slice(at);
}

function moveEnds(
  ref: WrittenRef,
  move: (end: RefEnd) => RefEnd | undefined,
): WrittenRef | undefined {
  const from = move(ref.from);
  const to = ref.to && move(ref.to);
  if (!from || (ref.to && !to)) return undefined;
  if (same(from, ref.from) && (!ref.to || same(to!, ref.to))) return ref;
  return {...ref, from, to};
}

function shift(end: RefEnd, axis: Axis, at: number, count: number): RefEnd {
  const index = indexOn(end, axis);
  return index !== undefined && index >= at
    ? withIndex(end, axis, index + count)
    : end;
}

/**
 * `count` rows or columns from `at` deleted: a single cell inside them is lost; a range keeps
 * what is left of it (lost only when nothing is).
 */
function shrink(
  ref: WrittenRef,
  axis: Axis,
  at: number,
  count: number,
): WrittenRef | undefined {
  const last = at + count - 1;
  const a = indexOn(ref.from, axis)!;
  const b = ref.to ? indexOn(ref.to, axis)! : a;
  const low = Math.min(a, b);
  const high = Math.max(a, b);
  const newLow = low < at ? low : low > last ? low - count : at;
  const newHigh = high > last ? high - count : high < at ? high : at - 1;
  if (newHigh < newLow) return undefined;
  const fromIsLow = a <= b;
  const from = withIndex(ref.from, axis, fromIsLow ? newLow : newHigh);
  const to = ref.to && withIndex(ref.to, axis, fromIsLow ? newHigh : newLow);
  if (same(from, ref.from) && (!ref.to || same(to!, ref.to))) return ref;
  return {...ref, from, to};
}

function indexOn(end: RefEnd, axis: Axis): number | undefined {
  return axis === 'rows' ? end.row : end.column;
}

function withIndex(end: RefEnd, axis: Axis, index: number): RefEnd {
  return axis === 'rows' ? {...end, row: index} : {...end, column: index};
}

function same(a: RefEnd, b: RefEnd): boolean {
  return a.row === b.row && a.column === b.column;
}

function written(ref: WrittenRef): string {
  const end = (e: RefEnd) =>
    `${e.columnFixed ? '$' : ''}${columnLetters(e.column)}` +
    (e.row === undefined ? '' : `${e.rowFixed ? '$' : ''}${e.row}`);
  return ref.prefix + end(ref.from) + (ref.to ? `:${end(ref.to)}` : '');
}
