import {budgetOffer} from '../../../src/jobs/refresh/offers-refresher';
import {once} from '../../../src/jobs/refresh/sheet-refresher';
import type {Offer} from '../../../src/api/types';
import {readColumn} from '../../../src/sheets/schema';
import {BUDGETS, budgetRows} from '../../../src/sheets/schemas/budgets';
import {offer} from '../../support/records';

/** Every Budgets cell an offer's rows read, by row and column. */
const budgetCells = (o: Offer) =>
  budgetRows(o).map(row => BUDGETS.columns.map(c => readColumn(c, row)));

describe('the offer Budgets keeps while Offers is written', () => {
  it('reads as the whole offer in every Budgets column, with or without a budget', () => {
    const offers = [
      offer(1),
      offer(2, {
        budget: [
          {
            target_geo: 'US',
            daily_cap_type: 'BUDGET',
            daily_cap: '60',
            total_budget: '900',
          },
          {
            target_geo: 'GB',
            daily_cap_type: 'CONVERSION',
            daily_cap: '70',
            total_budget: 'OPEN',
          },
        ],
      }),
      offer(3, {budget: []}),
    ];
    for (const o of offers)
      expect(budgetCells(budgetOffer(o))).toEqual(budgetCells(o));
  });

  it('leaves a field the list did not give out, so the sheet keeps its cell as before', () => {
    const listed = offer(4) as unknown as Record<string, unknown>;
    delete listed.currency;
    const kept = budgetOffer(listed as unknown as Offer);
    expect('currency' in kept).toBe(false);
    expect(budgetCells(kept)).toEqual(budgetCells(listed as unknown as Offer));
  });

  it('holds nothing else of the offer', () => {
    expect(Object.keys(budgetOffer(offer(5))).sort()).toEqual([
      'budget',
      'currency',
      'maintain_by',
      'offer_id',
      'offer_name',
      'target_geo',
    ]);
  });
});

describe('records handed to a write once', () => {
  it('are given once, then no longer held', () => {
    const take = once(['a record']);
    expect(take()).toEqual(['a record']);
    expect(() => take()).toThrow('already taken');
  });
});
