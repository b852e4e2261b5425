/**
 * pushBudgets (API 4.5): each offer whose Budgets rows differ from what was last pulled (a
 * changed cell, an added row, a deleted row) gets its whole budget replaced by its rows.
 * The budget rules are checked first (rules/budget.ts); a refused budget marks every row of
 * the offer INVALID and sends nothing for it.
 */
import {listByIds} from '../../api/paging';
import type {RunOptions} from '../kernel';
import {renderDetails} from '../../api/errors';
import {offersListing, updateBudgets} from '../../api/operations';
import type {BudgetGroup, BudgetUpdate} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {BudgetGroupInput, checkBudget} from '../../rules/budget';
import {EMPTY, sameContent} from '../../sheets/rows';
import {BUDGETS, BudgetRow, budgetRows} from '../../sheets/schemas/budgets';
import {sheetRow} from '../../sheets/table';
import {guardBudgets} from './budget-hold';
import {PushSpec, RecordDecision, RecordRules, hasProblems} from './push-spec';
import {runPush} from './push';
import type {JobSummary} from '../run';

/** The budget rules (rules/budget.ts) on an offer's groups, against its delivery geos. */
const BUDGET_RULES: RecordRules = {
  check: (rows, {base}) => {
    const verdict = checkBudget(
      rows as unknown as BudgetGroupInput[],
      base.facts?.target_geo ?? '',
    );
    return {rows: verdict.groups, whole: verdict.budget};
  },
  whole: 'budget',
};

export const BUDGETS_PUSH: PushSpec<BudgetRow, BudgetUpdate> = {
  job: 'pushBudgets',
  schema: BUDGETS,
  refreshTitle: 'Refresh offers and budgets',
  build(record): RecordDecision<BudgetUpdate> {
    // A row with every budget cell empty is no group (an offer without a budget).
    const groupRows = record.rows.flatMap((row, k) =>
      record.decoded[k].texts.some(text => text !== EMPTY)
        ? [{row, cells: record.decoded[k]}]
        : [],
    );
    const verdict = BUDGET_RULES.check(
      groupRows.map(g => g.cells.values),
      record,
    );
    const own = new Map(
      groupRows.map(({row, cells}, k) => [
        row,
        renderDetails({...verdict.rows[k], ...cells.problems}),
      ]),
    );
    const whole = renderDetails(verdict.whole);
    if (!hasProblems(verdict) && [...own.values()].every(text => text === '')) {
      const budget = groupRows.map(g =>
        budgetGroup(g.cells.values as unknown as BudgetGroupInput),
      );
      const plural = budget.length === 1 ? 'group' : 'groups';
      return {
        ok: true,
        request: {offer_id: Number(record.id), budget},
        sends: `the budget of offer ${record.id} (${budget.length} ${plural})`,
      };
    }
    const first = [...own.entries()].find(([, text]) => text !== '');
    const elsewhere = whole || `row ${sheetRow(first![0])}: ${first![1]}`;
    const refused = new Map(
      record.rows.map(r => {
        const mine = [own.get(r) ?? '', whole].filter(Boolean).join('; ');
        return [
          r,
          mine ||
            `Not sent: another row of offer ${record.id} is refused (${elsewhere}).`,
        ];
      }),
    );
    return {ok: false, refused};
  },
  rules: BUDGET_RULES,
  send: updateBudgets,
  // A group the user did not touch goes out as last pulled: a change made on the server since
  // must not be overwritten by it.
  resendsPulled: record =>
    record.content.some(row =>
      record.base.rows.some(pulled => sameContent([row], [pulled])),
    ),
  guard: guardBudgets,
  readBack: groups =>
    listByIds(
      groups,
      (client, chunk) => offersListing(client, {offer_id: chunk}),
      budgetRows,
    ),
};

function budgetGroup(g: BudgetGroupInput): BudgetGroup {
  return {
    country_code: String(g.country_code),
    daily_cap_type: String(g.daily_cap_type),
    daily_cap: g.daily_cap as number | string,
    total_budget: totalBudget(g.total_budget as number | string),
  };
}

/**
 * 4.5 types total_budget "string or int" (daily_cap only int): a whole amount goes as an int,
 * one with decimals as its text ("2000.5"), which that type allows and a float is not.
 */
function totalBudget(value: number | string): number | string {
  return typeof value === 'number' && !Number.isInteger(value)
    ? String(value)
    : value;
}

export function pushBudgets(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runPush(platform, BUDGETS_PUSH, options);
}
