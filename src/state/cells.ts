/**
 * How a state section's JSON lies in the cells of its column (book.ts), so that saving a
 * section writes only the cells whose text changed. A push saves its state before every batch
 * of requests leaves: rewriting a section of megabytes each time is most of what it would send
 * to the document.
 *
 * The text is cut where its content says (a rolling hash over the last 32 characters), not
 * every CHUNK characters: an edit changes the cut points only near itself, so the chunks before
 * and after it come out as before. A save keeps in place every cell whose text is still there,
 * before, between and after the changes (whoever cut it), and lays the changed text, cut the
 * same way, into the cells between: where it makes fewer pieces than cells, the rest are left
 * empty (a cell holding nothing but the prefix: the reader, which joins the cells, reads
 * nothing there); where more, its text is spread evenly over those cells. Either way the
 * cells after it stay where they are. Only text those cells cannot hold takes in the cells
 * after it, one at a time, rewritten; past the last, the column grows.
 */

/** Characters of JSON per cell, at most (a cell holds 50,000). */
export const CHUNK = 40000;
/**
 * No cut before this many characters: cells nearly as full as CHUNK, so that reading the sheet
 * takes about as many calls as when every cell was full (a read's calls are sized by the widest
 * row read so far, blocks.ts readInRuns: cells of very different sizes would take more).
 */
const MIN_CHUNK = 24000;
/**
 * A cut where the hash's top 12 bits are all 0: one position in 4,096 past MIN_CHUNK, so
 * chunks hold some 32,000 characters. The top bits depend on the last 32 characters.
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
    // A high surrogate, tested inline: this loop runs once a character of megabytes of state.
    if ((code & 0xfc00) === 0xd800 && end < text.length) {
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
  // More text than the cells between can hold: the cells after it join them, one at a time
  // (rewritten), until it fits; with none left after it, the column grows there.
  for (;;) {
    const slots = held.slice(kept, held.length - tail);
    const placed =
      tail === 0 || to - from <= slots.length * CHUNK
        ? fit(text.slice(from, to), slots, tail === 0)
        : undefined;
    if (placed) {
      const cells = [
        ...held.slice(0, kept),
        ...placed,
        ...held.slice(held.length - tail),
      ];
      return cells.length > 0 ? cells : [''];
    }
    to += held[held.length - tail].length;
    tail--;
  }
}

/**
 * How far from where a cell's text would be if nothing before it had changed size a save
 * looks for it: more than a push's batch changes between two cells it keeps.
 */
const SEARCH = 65536;

/**
 * `text` laid over the cells `slots` held: a cell whose text `text` still holds, near where
 * it was, keeps it, where the text before it fits the cells before it; the text between such
 * cells is cut by chunks() into the cells between. `open`: the text after the last may take
 * more or fewer cells (the column's end); else `text` takes exactly `slots.length` cells, or
 * undefined where it cannot fit.
 */
function fit(
  text: string,
  slots: readonly string[],
  open: boolean,
): string[] | undefined {
  const out: string[] = [];
  // The first slot not laid yet, where its text starts in `text`, and where it started in
  // the slots' text; where the slot looked at started there.
  let next = 0;
  let at = 0;
  let was = 0;
  let start = 0;
  slots.forEach((cell, i) => {
    // Where the cell's text is if the text since the last cell kept kept its size.
    const expected = at + start - was;
    start += cell.length;
    if (cell === '') return;
    const from = Math.max(at, expected - SEARCH);
    const found = text
      .slice(from, expected + SEARCH + cell.length)
      .indexOf(cell);
    if (found < 0) return;
    const between = cut(text.slice(at, from + found), i - next);
    if (!between) return;
    out.push(...between, cell);
    next = i + 1;
    at = from + found + cell.length;
    was = start;
  });
  const rest = text.slice(at);
  if (open) return [...out, ...(rest ? chunks(rest) : [])];
  const last = cut(rest, slots.length - next);
  // The cells it kept left too little room after them: the text takes the cells afresh.
  return last ? [...out, ...last] : cut(text, slots.length);
}

/** `text` cut by chunks() into exactly `count` cells, or undefined if it cannot fit. */
function cut(text: string, count: number): string[] | undefined {
  return fill(text ? chunks(text) : [], count);
}

/**
 * `pieces` in exactly `count` cells: as they are, empty cells after them, where they are no
 * more; else their text cut into `count` cells of even size. Undefined if it cannot fit.
 */
function fill(pieces: readonly string[], count: number): string[] | undefined {
  if (pieces.length <= count) {
    return [...pieces, ...Array<string>(count - pieces.length).fill('')];
  }
  const text = pieces.join('');
  const cells: string[] = [];
  let start = 0;
  for (let left = count; left > 0; left--) {
    let end = start + Math.ceil((text.length - start) / left);
    if (end - start > CHUNK) return undefined;
    // Never inside a surrogate pair: past it where the cell has room, else before it.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) {
      end += end - start < CHUNK ? 1 : -1;
    }
    cells.push(text.slice(start, end));
    start = end;
  }
  return start < text.length ? undefined : cells;
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
