/**
 * Issue 28, sections 1 and 2: what a newcomer may edit and what happened to the rows, and
 * budget words that never mislead, as the built dist/Code.js says them in the local Apps
 * Script runtime against the Open API emulator.
 */
import {budgetsPulled} from '../support/history';
import {recordsOf} from '../support/offer-desk';

describe('the budget guard says what a push adds, in the words of what it compares', () => {
  it('a CONVERSION cap raised tenfold adds conversions, compared with the value on the server; the summary names one row', () => {
    const desk = budgetsPulled(1);
    const {rt, emulator, ids, cap, rowOf} = desk;
    const [id] = ids;
    emulator.updateOffer(id, {
      budget: [
        {
          target_geo: 'ALL',
          total_budget: 'OPEN',
          daily_cap_type: 'CONVERSION',
          daily_cap: '473',
        },
      ],
    });
    rt.call('refreshOffers');
    cap(id, '5000');
    rt.ui.answerNextAlert('NO');
    const summary = rt.call('pushBudgets') as {message: string};
    const name = String(
      recordsOf(rt, 'Budgets').find(r => r.offer_id === id)!.offer_name,
    );
    expect(rt.ui.alerts().at(-1)!.prompt).toBe(
      [
        'The budget guard holds 1 offer of this push:',
        `• offer ${id} (${name}): daily_cap [ALL] 473 → 5,000: 10.6× the value on the server (the guard holds more than 3×)`,
        '',
        'This push adds to the daily caps: +4,527 conversions.',
        '',
        'Yes sends them with the rest. No sends the rest only: the held rows stay EDITED.',
      ].join('\n'),
    );
    expect(summary.message).toContain(
      `The budget guard held 1 offer (row ${rowOf(id)}): not sent, as you answered No.`,
    );
  });
});
