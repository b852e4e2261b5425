/**
 * How a state section's JSON lies in the cells of its column (state.ts), so that saving a
 * section writes only the cells whose text changed. A push saves its state before every batch
 * of requests leaves: rewriting a section of megabytes each time is most of what it would send
 * to the document.
 *
 * The text is cut where its content says (a rolling hash over the last 32 characters), not
 * every CHUNK characters: an edit changes the cut points only near itself, so the chunks before
 * and after it come out as before. A save then keeps in place every cell that still holds the
 * same text at the same place, and fills the cells between with the new chunks. Where an edit
 * leaves fewer chunks than cells, the rest of those cells are left empty (a cell holding
 * nothing but the prefix: the reader, which joins the cells, reads nothing there), and where it
 * leaves more, neighbours share a cell: either way the cells after it stay where they are. Only
 * when the new text cannot fit in those cells do the cells after it move, and are rewritten.
 */

/** Characters of JSON per cell, at most (a cell holds 50,000). */
export const CHUNK = 40000;
/** No cut before this many characters: fewer cells to read, at little cost to write. */
const MIN_CHUNK = 2000;
/**
 * A cut where the hash's top 12 bits are all 0: one position in 4,096 past MIN_CHUNK, so
 * chunks hold some 6,000 characters of varied text (state JSON repeats itself, and its chunks
 * come out longer: some 10,000). The top bits depend on the last 32 characters.
 */
const CUT_SHIFT = 32 - 12;
/** A fixed random number per character (its low byte): the rolling hash's terms. */
const GEAR = gearTable();

function gearTable(): Int32Array {
  const table = new Int32Array(256);
  // xorshift32 from a fixed seed: the cut points must be the same in every execution.
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < table.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    table[i] = x;
  }
  return table;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * `text` in pieces of at most CHUNK characters cut where its content says, never inside a
 * surrogate pair; at least one piece.
 */
export function chunks(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let hash = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    hash = ((hash << 1) + GEAR[code & 0xff]) | 0;
    let end = i + 1;
    const size = end - start;
    if (isHighSurrogate(code) && end < text.length) {
      if (size < CHUNK) continue;
      // Full: the pair starts the next piece.
      end = i;
    } else if (size < CHUNK && (size < MIN_CHUNK || hash >>> CUT_SHIFT !== 0)) {
      continue;
    }
    out.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length || out.length === 0) out.push(text.slice(start));
  return out;
}

/**
 * The cells that are to hold `text`, given the cells `held` that hold the section's text now:
 * a cell that still holds the same text at the same place is kept as it is, so it compares
 * equal and is not written (even one an earlier release cut every CHUNK characters).
 */
export function layout(held: readonly string[], text: string): string[] {
  let kept = 0;
  let from = 0;
  while (kept < held.length && text.startsWith(held[kept], from)) {
    from += held[kept].length;
    kept++;
  }
  let tail = 0;
  let to = text.length;
  while (kept + tail < held.length) {
    const cell = held[held.length - 1 - tail];
    if (to - cell.length < from || !text.endsWith(cell, to)) break;
    to -= cell.length;
    tail++;
  }
  const before = held.slice(0, kept);
  const after = held.slice(held.length - tail);
  const between = held.slice(kept, held.length - tail);
  const middle = from < to ? chunks(text.slice(from, to)) : [];
  // With no cell kept after the change, the column may grow or shrink there.
  const placed = fit(middle, between, tail === 0);
  const cells = placed
    ? [...before, ...placed, ...after]
    : // The text between does not fit its cells: the cells after it move, written anew.
      [
        ...before,
        ...fit(chunks(text.slice(from)), [...between, ...after], true)!,
      ];
  return cells.length > 0 ? cells : [''];
}

/**
 * `pieces` laid over the cells `slots` held: a piece equal to a cell's text takes that cell
 * where the pieces before it fit the cells before it; the others fill the cells between.
 * `open`: the last of them may take more or fewer cells (the column's end); else the pieces
 * take exactly `slots.length` cells, or undefined if they cannot.
 */
function fit(
  pieces: readonly string[],
  slots: readonly string[],
  open: boolean,
): string[] | undefined {
  const where = new Map<string, number[]>();
  slots.forEach((cell, i) => {
    if (cell !== '') where.set(cell, [...(where.get(cell) ?? []), i]);
  });
  const out: string[] = [];
  let next = 0;
  let waiting: string[] = [];
  for (const piece of pieces) {
    const at = where.get(piece)?.find(i => i >= next);
    const filled = at === undefined ? undefined : fill(waiting, at - next);
    if (filled) {
      out.push(...filled, piece);
      next = at! + 1;
      waiting = [];
    } else {
      waiting.push(piece);
    }
  }
  if (open) return [...out, ...waiting];
  const last = fill(waiting, slots.length - next);
  return last && [...out, ...last];
}

/**
 * `pieces` in exactly `count` cells: where they are more, the shortest neighbours share a
 * cell (up to CHUNK), so the others stay as cut; where fewer, empty cells follow them;
 * undefined if they cannot fit.
 */
function fill(pieces: readonly string[], count: number): string[] | undefined {
  const cells = [...pieces];
  while (cells.length > count) {
    let best = -1;
    for (let i = 0; i + 1 < cells.length; i++) {
      const size = cells[i].length + cells[i + 1].length;
      const bestSize =
        best < 0 ? Infinity : cells[best].length + cells[best + 1].length;
      if (size <= CHUNK && size < bestSize) best = i;
    }
    if (best < 0) return undefined;
    cells.splice(best, 2, cells[best] + cells[best + 1]);
  }
  return [...cells, ...Array<string>(count - cells.length).fill('')];
}

/** A block of consecutive cells to write: `first` counted from 0. */
export interface CellRun {
  first: number;
  cells: string[];
}

/** The runs of `cells` that differ from `held` at the same place (every cell past its end). */
export function changedRuns(
  held: readonly string[],
  cells: readonly string[],
): CellRun[] {
  const runs: CellRun[] = [];
  let run: CellRun | undefined;
  cells.forEach((cell, i) => {
    if (i < held.length && held[i] === cell) {
      run = undefined;
    } else if (run) {
      run.cells.push(cell);
    } else {
      run = {first: i, cells: [cell]};
      runs.push(run);
    }
  });
  return runs;
}
