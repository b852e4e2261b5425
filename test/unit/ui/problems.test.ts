import type {RowProblem} from '../../../src/jobs/run';
import {groupProblems, summaryTone} from '../../../src/ui/client/jobs';
import {summary} from './fakes';

const row = (
  sheet: string,
  n: number,
  message: string,
  status: RowProblem['status'] = 'INVALID',
): RowProblem => ({sheet, row: n, status, message});

describe('the rows that need attention, as the sidebar lists them', () => {
  it('are grouped by sheet, then by reason (status and message), in listed order', () => {
    const cap = 'daily_cap: must be at least 50';
    const grouped = groupProblems([
      row('Budgets', 7, cap),
      row('Offers', 3, 'click_url: must start with https://'),
      row('Budgets', 9, cap),
      row('Budgets', 12, cap, 'ERROR'),
    ]);
    expect(
      [...grouped].map(([sheet, groups]) => [
        sheet,
        groups.map(g => [g.reason, g.rows.map(r => r.row)]),
      ]),
    ).toEqual([
      [
        'Budgets',
        [
          [`INVALID: ${cap}`, [7, 9]],
          [`ERROR: ${cap}`, [12]],
        ],
      ],
      ['Offers', [['INVALID: click_url: must start with https://', [3]]]],
    ]);
  });
});

describe('summaryTone', () => {
  it('is amber while CONFLICT rows wait, as for refused rows; red for errors; else green', () => {
    expect(summaryTone(summary({edited: 5}))).toBe('ok');
    expect(summaryTone(summary({edited: 4, conflict: 1}))).toBe('warn');
    expect(summaryTone(summary({invalid: 1}))).toBe('warn');
    expect(summaryTone(summary({error: 1, conflict: 1}))).toBe('error');
  });
});
