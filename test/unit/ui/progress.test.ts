import {
  REPORT_SPACING_MS,
  cacheProgressBoard,
} from '../../../src/platform/progress';
import type {Cache} from '../../../src/platform/ports';

class CountingCache implements Cache {
  readonly values = new Map<string, string>();
  puts = 0;
  get(key: string) {
    return this.values.get(key) ?? null;
  }
  put(key: string, value: string) {
    this.puts++;
    this.values.set(key, value);
  }
  remove(key: string) {
    this.values.delete(key);
  }
}

function board(documentId = 'doc-1') {
  const cache = new CountingCache();
  const clock = {ms: 1_000_000};
  return {
    cache,
    clock,
    board: cacheProgressBoard(
      () => cache,
      () => documentId,
      () => clock.ms,
    ),
  };
}

describe('the progress board', () => {
  it('keeps the latest report per spreadsheet in the user cache', () => {
    const {board: b, cache} = board('sheet-A');
    b.report('refreshOffers', 0, 300);
    expect(b.read()).toEqual({
      job: 'refreshOffers',
      done: 0,
      total: 300,
      at: 1_000_000,
      since: 1_000_000,
    });
    expect([...cache.values.keys()]).toEqual(['offerDesk.progress.sheet-A']);
  });

  it('writes at most one report a second, but always the start and the end', () => {
    const {board: b, cache, clock} = board();
    b.report('pushBudgets', 0, 500);
    for (let done = 1; done < 500; done++) {
      clock.ms += 10;
      b.report('pushBudgets', done, 500);
    }
    clock.ms += 10;
    b.report('pushBudgets', 500, 500);
    // 5 s of reports: the start, one a second, the end.
    expect(cache.puts).toBe(1 + Math.floor((499 * 10) / REPORT_SPACING_MS) + 1);
    expect(b.read()).toMatchObject({done: 500, total: 500});
  });

  it('answers null when nothing was reported or the cache lost it', () => {
    const {board: b, cache} = board();
    expect(b.read()).toBeNull();
    b.report('refreshAll', 3, 10);
    cache.values.clear();
    expect(b.read()).toBeNull();
  });

  it('forgets its own run when the job ends, never another execution’s', () => {
    const {board: mine, cache, clock} = board();
    mine.report('refreshAll', 0, 10);
    clock.ms += 5000;
    mine.report('refreshAll', 4, 10);
    expect(mine.read()).toMatchObject({at: 1_005_000, since: 1_000_000});
    // A second execution found the lock taken and reported nothing: its end leaves ours.
    const other = cacheProgressBoard(
      () => cache,
      () => 'doc-1',
      () => clock.ms,
    );
    other.end();
    expect(mine.read()).toMatchObject({done: 4, total: 10});
    mine.end();
    expect(mine.read()).toBeNull();
  });
});
