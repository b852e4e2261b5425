/**
 * Where the one writer (writer.ts) writes what a job decided: in blocks, the cheaper way by the
 * latency model the bench uses (DESIGN 6): each gap-free rectangle of decided cells as its own
 * block, or a few large blocks whose undecided cells are read again just before the write.
 */
import type {Contents} from './table';

/** A row's decided cells: column -> contents (the blocks ask only which columns). */
export interface Decided {
  decided?: Pick<ReadonlyMap<number, Contents>, 'keys' | 'has'>;
}

/** Entries by data row: all the blocks ask of an index. */
export interface ByRow<T> {
  get(row: number): T | undefined;
}

/**
 * Entries by data row, held as an array: a write of 42,000 rows held a Map of them (2 MB) at
 * its peak, twice (issue 37).
 */
export function rowIndex<E extends {row: number}, T>(
  entries: ReadonlyArray<E>,
  value: (entry: E) => T,
): ByRow<T> {
  const last = entries.reduce((max, e) => Math.max(max, e.row), -1);
  const at = new Array<T | undefined>(last + 1);
  for (const entry of entries) at[entry.row] = value(entry);
  return {get: row => at[row]};
}

/**
 * Prices of the latency model the bench uses (DESIGN 6, local/runtime/latency.ts), in ms: a
 * block written is a getRange and a queued setValues; a read is a round trip; each cell read
 * or written costs its share.
 */
export const BLOCK_MS = 3;
export const READ_MS = 40;
export const CELL_MS = 0.01;

/** Data rows top..bottom and columns left..right (0-based, inclusive). */
export interface Block {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * The most rows a block is written in at once: what writing it makes (its cells as read
 * again, their formats, the entries sent) is held a band at a time, not for every row of a
 * large sheet (issue 37: 31,000 rows of one column were 5 MB of a refresh's peak).
 */
export const BAND_ROWS = 5000;

/** The block cut across into bands of at most BAND_ROWS rows, top first. */
export function rowBands(block: Block): Block[] {
  const bands: Block[] = [];
  for (let top = block.top; top <= block.bottom; top += BAND_ROWS) {
    bands.push({
      ...block,
      top,
      bottom: Math.min(block.bottom, top + BAND_ROWS - 1),
    });
  }
  return bands;
}

export const area = (b: Block) =>
  (b.bottom - b.top + 1) * (b.right - b.left + 1);

function hasGaps(block: Block, byRow: ByRow<Decided>): boolean {
  for (let r = block.top; r <= block.bottom; r++) {
    const decided = byRow.get(r)?.decided;
    for (let c = block.left; c <= block.right; c++) {
      if (!decided?.has(c)) return true;
    }
  }
  return false;
}

/**
 * What writing these blocks costs, as the writer writes them (a band of rows at a time,
 * rowBands): each band a write, a band with gaps also two reads.
 */
export function cost(blocks: Block[], byRow: ByRow<Decided>): number {
  return blocks.flatMap(rowBands).reduce((ms, b) => {
    const reads = hasGaps(b, byRow) ? 2 * (READ_MS + area(b) * CELL_MS) : 0;
    return ms + BLOCK_MS + area(b) * CELL_MS + reads;
  }, 0);
}

/**
 * Rectangles holding decided cells only: rows next to each other with the same decided
 * columns share one, each run of neighbouring columns its own.
 */
export function exactBlocks(
  updates: ReadonlyArray<{row: number; handle: Decided}>,
): Block[] {
  const sorted = [...updates].sort((a, b) => a.row - b.row);
  const blocks: Block[] = [];
  let open: Block[] = [];
  let openKey = '';
  let openBottom = -2;
  for (const {row, handle} of sorted) {
    const columns = [...(handle.decided?.keys() ?? [])].sort((a, b) => a - b);
    const key = columns.join(',');
    if (key === openKey && row === openBottom + 1) {
      for (const b of open) b.bottom = row;
    } else {
      open = [];
      for (const c of columns) {
        const last = open[open.length - 1];
        if (last && last.right === c - 1) last.right = c;
        else open.push({top: row, bottom: row, left: c, right: c});
      }
      blocks.push(...open);
      openKey = key;
    }
    openBottom = row;
  }
  return blocks;
}

/**
 * Blocks from each column's first and last decided row: one block, split where the cells
 * between two columns would cost more than another block.
 */
export function joinedBlocks(
  updates: ReadonlyArray<{row: number; handle: Decided}>,
  width: number,
): Block[] {
  const first = new Array<number>(width).fill(-1);
  const last = new Array<number>(width).fill(-1);
  for (const {row, handle} of updates) {
    for (const c of handle.decided?.keys() ?? []) {
      if (first[c] < 0 || row < first[c]) first[c] = row;
      if (row > last[c]) last[c] = row;
    }
  }
  const perBlock = (READ_MS * 2 + BLOCK_MS) / (CELL_MS * 3);
  const blocks: Block[] = [];
  first.forEach((top, c) => {
    if (top < 0) return;
    const column = {top, bottom: last[c], left: c, right: c};
    const open = blocks[blocks.length - 1];
    if (open) {
      const joined = {
        top: Math.min(open.top, top),
        bottom: Math.max(open.bottom, last[c]),
        left: open.left,
        right: c,
      };
      if (area(joined) <= area(open) + area(column) + perBlock) {
        blocks[blocks.length - 1] = joined;
        return;
      }
    }
    blocks.push(column);
  });
  return blocks;
}

/** Columns left..right (0-based, inclusive). */
export interface ColumnRun {
  left: number;
  right: number;
}

function lastFilled(row: readonly Contents[]): number {
  for (let c = row.length - 1; c >= 0; c--) if (row[c] !== '') return c + 1;
  return 0;
}

/**
 * Which columns of new rows to write below a sheet's last row, where every cell is blank
 * already: a column blank in every row is left out when that saves more than another block
 * costs (a blank column of 10,000 new rows costs 100 ms to write, a block 3 ms). At least the
 * first column, so that an all-blank row is still one write.
 */
export function filledColumnRuns(
  rows: ReadonlyArray<readonly Contents[]>,
): ColumnRun[] {
  const width = Math.max(
    1,
    rows.reduce((w, r) => Math.max(w, lastFilled(r)), 0),
  );
  const filled = new Array<boolean>(width).fill(false);
  filled[0] = true;
  for (const row of rows) {
    for (let c = 0; c < width; c++) if (row[c] !== '') filled[c] = true;
  }
  const blankWorthSkipping = BLOCK_MS / (CELL_MS * Math.max(1, rows.length));
  const runs: ColumnRun[] = [];
  filled.forEach((isFilled, c) => {
    if (!isFilled) return;
    const last = runs[runs.length - 1];
    if (last && c - last.right - 1 <= blankWorthSkipping) last.right = c;
    else runs.push({left: c, right: c});
  });
  return runs;
}
