/**
 * The cells of New Offers, Creative Sets and Creatives rows as the rules of 4.2 take them:
 * decoded where they read as their column's type, as typed where they do not.
 */
import type {Material} from '../../api/types';
import {TRACKING_FIELDS, checkTracking} from '../../rules/tracking';
import {asShown} from '../../rules/values';
import {isEmptyCell} from '../../sheets/cell';
import type {CodecContext} from '../../sheets/codec';
import {decodeRow, isBlankRow} from '../../sheets/rows';
import {FIRST_ROW, Table, cellOf} from '../../sheets/table';
import type {Tracking} from './new-offer-plan';

/**
 * A row's values as the rules take them: decoded where the cell reads as its column's type,
 * the cell as typed where it does not (the rules then say what is wrong with it, or take the
 * reader's own problem: `unread`, field -> reason).
 */
export function readRow(
  table: Table<never>,
  index: number,
  context: CodecContext,
): {values: Record<string, unknown>; unread: Record<string, string>} {
  const headers = table.schema.columns.map(c => c.header);
  const {values, problems} = decodeRow(table, index, headers, context);
  for (const header of headers) {
    if (values[header] === undefined)
      values[header] = cellOf(table, index, header);
  }
  return {values, unread: problems};
}

/**
 * target_goal cells that hold a number under a percent format (150% typed into a cell that
 * was not plain text holds 1.5): row -> the goal as typed ("150%"), for the rules to read as
 * meant. Formats are read (one call) only when some row's goal is a number.
 */
export function percentGoals(
  offers: Table<never>,
  rows: readonly number[],
): Map<number, string> {
  const goals = new Map<number, string>();
  const numeric = rows.filter(
    i => typeof cellOf(offers, i, 'target_goal') === 'number',
  );
  const column = offers.position.get('target_goal');
  if (numeric.length === 0 || column === undefined) return goals;
  const top = Math.min(...numeric);
  const formats = offers.sheet.readNumberFormats(
    FIRST_ROW + top,
    column + 1,
    Math.max(...numeric) - top + 1,
    1,
  );
  for (const i of numeric) {
    if (!formats[i - top]?.[0]?.includes('%')) continue;
    const value = cellOf(offers, i, 'target_goal') as number;
    goals.set(i, `${asShown(value * 100)}%`);
  }
  return goals;
}

export function dataRows(table: Table<never> | Table<Material>): number[] {
  return table.values.map((_, i) => i).filter(i => !isBlankRow(table, i));
}

export function textCell(
  table: Table<never> | Table<Material>,
  index: number,
  header: string,
): string {
  return String(cellOf(table, index, header)).trim();
}

/** The row's tracking, when any of its columns is filled. */
export function trackingOf(values: Record<string, unknown>): {
  tracking?: Tracking;
  problems: string[];
} {
  if (TRACKING_FIELDS.every(f => isEmptyCell(values[f]))) return {problems: []};
  const input = {
    tracking_method: values.tracking_method ?? null,
    click_url: values.click_url ?? null,
    support_server_click: values.support_server_click ?? null,
  };
  const problems = Object.values(checkTracking(input));
  if (problems.length > 0) return {problems};
  const text = (v: unknown) =>
    v === null || v === undefined ? '' : String(v).trim();
  return {
    problems,
    tracking: {
      tracking_method: text(input.tracking_method),
      click_url: text(input.click_url),
      support_server_click: text(input.support_server_click),
    },
  };
}
