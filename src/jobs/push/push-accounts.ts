/**
 * Whose rows a push sends (issue 33): each row goes out signed by its owner whatever account
 * acts, so the summary names every account a push touched with its rows, never only the one
 * acting; and rows that "Show rows of" hides (the basic filter on the account column) are told
 * before anything is sent: the preview says so, and a push asks first whether to send them.
 */
import type {Platform} from '../../platform/ports';
import {ACCOUNT, accountLabel, accountOfCell} from '../../sheets/accounts';
import type {Table} from '../../sheets/table';
import {counted} from '../../text/wording';
import type {Sending} from './push-spec';

/** The units' records, or their rows, by account ('' the main account). */
export function byAccount<Q>(
  units: ReadonlyArray<Sending<Q>>,
  count: 'records' | 'rows',
): Map<string, number> {
  const out = new Map<string, number>();
  for (const {record} of units)
    out.set(
      record.account,
      (out.get(record.account) ?? 0) +
        (count === 'rows' ? record.rows.length : 1),
    );
  return out;
}

/** The units whose account's rows the filter of the sheet's account column hides. */
export function hiddenUnits<S, Q>(
  table: Table<S>,
  units: ReadonlyArray<Sending<Q>>,
): Array<Sending<Q>> {
  const at = table.position.get(ACCOUNT);
  if (at === undefined || units.length === 0) return [];
  const hidden = new Set(
    table.sheet.filteredOut(at + 1).map(cell => accountOfCell(cell) ?? ''),
  );
  return hidden.size === 0
    ? []
    : units.filter(unit => hidden.has(unit.record.account));
}

/** "3 rows of sub-account x and 1 row of the main account". */
export function whoseRows(rows: ReadonlyMap<string, number>): string {
  return [...rows]
    .map(
      ([account, n]) => `${counted(n, 'row')} of the ${accountLabel(account)}`,
    )
    .join(' and ');
}

export const HIDDEN_TITLE = 'Send rows the filter hides?';

/**
 * Asks whether to send the edited rows the filter hides too: true sends them, false or no
 * answer (null: no one can answer) sends the shown rows only.
 */
export function askHidden<Q>(
  platform: Platform,
  sheet: string,
  hidden: ReadonlyArray<Sending<Q>>,
): boolean {
  return (
    platform.ui.confirm(
      HIDDEN_TITLE,
      [
        `${sheet} is filtered (Show rows of), and this push would also send ${whoseRows(byAccount(hidden, 'rows'))}, which the filter hides.`,
        '',
        'Yes sends them with the rows shown. No sends the rows shown only: the hidden rows keep your edits, unsent.',
      ].join('\n'),
    ) === true
  );
}

/** What a hidden row not sent says. */
export const HIDDEN_NOT_SENT =
  'Not sent: the filter (Show rows of) hid this row when you pushed, and you chose to send the rows shown only. Push again and answer Yes, or show every account, to send it.';
