/**
 * The state a refresh saves before it writes a sheet (refresh-settle.ts beforeWriting): what
 * the write puts in each record's rows beside it, and nothing more than that.
 */
import {refreshOffers} from '../../../src/jobs/refresh/refresh';
import {recordKey} from '../../../src/sheets/accounts';
import type {SheetState} from '../../../src/sheets/pulled';
import {StateBook} from '../../../src/state/book';
import {emulatorPlatform} from '../../support/emulator-platform';

const BUDGET = {
  target_geo: 'ALL',
  total_budget: '1000',
  daily_cap_type: 'BUDGET' as const,
  daily_cap: '100',
};

describe('the state a refresh saves before writing Budgets', () => {
  it('marks the record whose rows the write changes, and shares every other with the state as last pulled', () => {
    const {platform, emulator} = emulatorPlatform({offers: 4});
    const ids = [...emulator.account('demo_adv').offers.keys()].sort(
      (a, b) => a - b,
    );
    for (const id of ids) emulator.updateOffer(id, {budget: [BUDGET]});
    refreshOffers(platform);
    emulator.updateOffer(ids[1], {budget: [{...BUDGET, daily_cap: '250'}]});

    const got = jest.spyOn(StateBook.prototype, 'get');
    const set = jest.spyOn(StateBook.prototype, 'set');
    try {
      refreshOffers(platform);
      const sets = set.mock.calls.flatMap(([section, state], k) =>
        section === 'Budgets'
          ? [{state, at: set.mock.invocationCallOrder[k]}]
          : [],
      );
      const [before, after] = sets.map(s => s.state);
      // The state the refresh merged with: the last asked for before it set its own.
      const previous = got.mock.results
        .filter(
          (_, k) =>
            got.mock.calls[k][0] === 'Budgets' &&
            got.mock.invocationCallOrder[k] < sets[0].at,
        )
        .pop()!.value as SheetState;
      const changed = recordKey('', String(ids[1]));
      const marked = Object.keys(before.records).filter(
        key => before.records[key] !== previous.records[key],
      );
      expect(marked).toEqual([changed]);
      expect(before.records[changed].rows).toEqual(
        previous.records[changed].rows,
      );
      expect(before.records[changed].writing).toEqual(
        after.records[changed].rows,
      );
      expect(after.records[changed].rows).not.toEqual(
        previous.records[changed].rows,
      );
    } finally {
      got.mockRestore();
      set.mockRestore();
    }
  });
});
