import {CHUNK, changedRuns, chunks, layout} from '../../../src/state/cells';

/** A seeded generator: the same texts every run. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

/** Records like a Budgets section's, `count` of them, as JSON. */
function records(count: number, seed = 1): Record<string, unknown> {
  const next = random(seed);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    out[`sub_${i % 7}\u0000${100000 + i}`] = {
      rows: [['"US"', '"DAILY"', String(Math.floor(next() * 9000)), 'null']],
      facts: {maintain_by: next() < 0.5 ? 'ADV' : 'PLATFORM'},
    };
  }
  return out;
}

const json = (r: Record<string, unknown>) => JSON.stringify({v: 3, records: r});

describe('chunks', () => {
  it('gives back any text when joined, each piece within CHUNK, no surrogate pair split', () => {
    const next = random(7);
    for (const size of [0, 1, 1999, 45000, 200000]) {
      let text = '';
      for (let i = 0; i < size; i++) {
        const r = next();
        text +=
          r < 0.1
            ? '😀'
            : String.fromCharCode(r < 0.2 ? 0x4e00 + (i % 500) : 32 + (i % 90));
      }
      const parts = chunks(text);
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(CHUNK);
        expect(/[\uD800-\uDBFF]$/.test(part)).toBe(false);
        expect(/^[\uDC00-\uDFFF]/.test(part)).toBe(false);
      }
    }
    expect(chunks('')).toEqual(['']);
  });

  it('cuts a text with no cut point every CHUNK characters, a pair kept whole', () => {
    expect(chunks('a'.repeat(2 * CHUNK + 5)).map(p => p.length)).toEqual([
      CHUNK,
      CHUNK,
      5,
    ]);
    const parts = chunks('a'.repeat(CHUNK - 1) + '😀' + 'b');
    expect(parts.map(p => p.length)).toEqual([CHUNK - 1, 3]);
  });

  it('cuts where the content says: an edit changes only the pieces around it', () => {
    const before = records(12000);
    const text = json(before);
    const after = {...before};
    const key = Object.keys(before)[6000];
    after[key] = {
      ...(before[key] as object),
      unknown: [['"US"', '"DAILY"', '12', 'null']],
    };
    const old = chunks(text);
    const now = chunks(json(after));
    expect(old.length).toBeGreaterThan(20);
    const fresh = now.filter(p => !old.includes(p));
    expect(fresh.length).toBeLessThanOrEqual(2);
    expect(now.length - fresh.length).toBeGreaterThanOrEqual(old.length - 2);
  });
});

describe('layout', () => {
  const section = json(records(12000));
  const held = chunks(section);

  /** Checks the cells hold the text and returns the runs a save writes. */
  function written(cells: string[], text: string) {
    expect(cells.join('')).toBe(text);
    for (const cell of cells) expect(cell.length).toBeLessThanOrEqual(CHUNK);
    return changedRuns(held, cells);
  }

  it('keeps every cell of an unchanged text', () => {
    expect(layout(held, section)).toEqual(held);
  });

  it('rewrites only the cell holding a changed record', () => {
    const k = Math.floor(held.length / 2);
    const text = section.replace(held[k], held[k].replace('DAILY', 'TOTAL'));
    const runs = written(layout(held, text), text);
    expect(runs).toEqual([
      {first: k, cells: [held[k].replace('DAILY', 'TOTAL')]},
    ]);
  });

  it('keeps the cells between two changed ones where they were', () => {
    const [a, b] = [4, 14];
    const text = section
      .replace(held[a], held[a].replace('DAILY', 'TOTAL'))
      .replace(held[b], held[b].replace('DAILY', 'TOTAL'));
    expect(written(layout(held, text), text)).toEqual([
      {first: a, cells: [held[a].replace('DAILY', 'TOTAL')]},
      {first: b, cells: [held[b].replace('DAILY', 'TOTAL')]},
    ]);
  });

  it('keeps the cells between two changed ones where an earlier change made the text longer', () => {
    const [a, b] = [4, 14];
    const longer = held[a].replace('DAILY', 'DAILY'.repeat(40));
    const text = section
      .replace(held[a], longer)
      .replace(held[b], held[b].replace('DAILY', 'TOTAL'));
    expect(written(layout(held, text), text)).toEqual([
      {first: a, cells: [longer]},
      {first: b, cells: [held[b].replace('DAILY', 'TOTAL')]},
    ]);
  });

  it('leaves a cell empty where a deletion leaves fewer chunks, and the cells after it in place', () => {
    const k = 5;
    const gone = held[k + 1] + held[k + 2].slice(0, 100);
    const text = section.replace(gone, '');
    const cells = layout(held, text);
    expect(written(cells, text)).toEqual([
      {first: k + 1, cells: [held[k + 2].slice(100), '']},
    ]);
    expect(cells.slice(k + 3)).toEqual(held.slice(k + 3));
  });

  it('spreads a cell grown past CHUNK over the cells after it, the cells after those in place', () => {
    const k = 5;
    const grown =
      held[k].slice(0, 100) + 'y'.repeat(CHUNK) + held[k].slice(100);
    const text = section.replace(held[k], grown);
    const cells = layout(held, text);
    const runs = written(cells, text);
    expect(cells).toHaveLength(held.length);
    expect(runs).toHaveLength(1);
    const [{first, cells: run}] = runs;
    expect(first).toBe(k);
    expect(run.length).toBeGreaterThan(1);
    expect(cells.slice(k + run.length)).toEqual(held.slice(k + run.length));
  });

  it('moves and rewrites the cells after a change that cannot fit their places', () => {
    const k = held.length - 4;
    const text = section.replace(held[k], held[k] + 'z'.repeat(3 * CHUNK));
    const cells = layout(held, text);
    const runs = written(cells, text);
    // The cell it follows is kept; every cell after it is written.
    expect(cells.length).toBeGreaterThan(held.length);
    expect(runs).toEqual([{first: k + 1, cells: cells.slice(k + 1)}]);
  });

  it('keeps the cells of a text an earlier release cut every CHUNK characters', () => {
    const fixed: string[] = [];
    for (let at = 0; at < section.length; at += CHUNK)
      fixed.push(section.slice(at, at + CHUNK));
    const k = 3;
    const changed = fixed[k].replace('DAILY', 'TOTAL');
    const text = fixed.map((c, i) => (i === k ? changed : c)).join('');
    const cells = layout(fixed, text);
    expect(cells.join('')).toBe(text);
    expect(changedRuns(fixed, cells)).toEqual([{first: k, cells: [changed]}]);
  });

  it('writes a section new to the sheet whole, and a shrunk one into fewer cells', () => {
    expect(layout([], section)).toEqual(held);
    const small = json(records(10));
    expect(layout(held, small).join('')).toBe(small);
    expect(layout(held, small).length).toBeLessThan(held.length);
  });
});

describe('changedRuns', () => {
  it('gives each run of cells that differ from those held, and every cell past them', () => {
    expect(
      changedRuns(['a', 'b', 'c', 'd', 'e'], ['a', 'B', 'C', 'd', 'E', 'f']),
    ).toEqual([
      {first: 1, cells: ['B', 'C']},
      {first: 4, cells: ['E', 'f']},
    ]);
    expect(changedRuns(['a', 'b'], ['a', 'b'])).toEqual([]);
  });
});
