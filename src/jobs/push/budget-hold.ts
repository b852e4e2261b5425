/**
 * The budget guard in pushBudgets (issue 21): the offers whose change the guard holds
 * (rules/budget-guard.ts) wait for one Yes/No question listing them and the daily cap the
 * whole push adds per currency. Yes sends them and their History rows say they were
 * confirmed; No, or no one to answer (a trigger), sends none of them and each of their rows
 * stays EDITED with why and how to send it (a CONFLICT or ERROR row keeps its status and what
 * it said, the hold after it). A preview lists them and asks nothing.
 */
import type {BudgetUpdate} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {
  GuardGroup,
  Hold,
  capTotals,
  holdsOf,
  totalsText,
} from '../../rules/budget-guard';
import {accountLabel} from '../../sheets/accounts';
import {fromCanonical} from '../../sheets/codec';
import {HELD_BY_GUARD} from '../../sheets/status';
import {editableOf} from '../../sheets/schema';
import {BUDGETS} from '../../sheets/schemas/budgets';
import {sheetRow} from '../../sheets/table';
import {counted} from '../../text/wording';
import type {Sending} from './push-spec';
import type {Guarded} from './push-spec';
import {SettingsStore} from '../settings-store';

/** Held changes listed in the question and the summary; the rows tell the rest. */
const LISTED = 15;
const GUARD_TITLE = 'Send large budget changes?';

/** A record's canonical contents as the groups the guard compares. */
function groupsOf(content: readonly string[][]): GuardGroup[] {
  const columns = editableOf(BUDGETS);
  return content.map(row => {
    const group: Record<string, unknown> = {};
    columns.forEach((c, k) => (group[c.header] = fromCanonical(row[k])));
    return group as unknown as GuardGroup;
  });
}

interface Checked {
  unit: Sending<BudgetUpdate>;
  holds: Hold[];
}

/** "offer 12 (name)", and whose it is where a sub-account's offer is among those held. */
const offerOf = (unit: Sending<BudgetUpdate>, accounts: boolean) => {
  const name = unit.record.base.facts?.offer_name;
  const whose = accounts ? ` of ${accountLabel(unit.record.account)}` : '';
  return `offer ${unit.record.id}${name ? ` (${name})` : ''}${whose}`;
};

const holdText = (h: Hold) =>
  `${h.field} ${h.before || '(none)'} → ${h.after}: ${h.why}`;

/** One line per held field, at most LISTED, then how many more. */
function listing(checked: readonly Checked[]): string[] {
  const accounts = checked.some(c => c.unit.record.account !== '');
  const lines = checked.flatMap(c =>
    c.holds.map(h => `${offerOf(c.unit, accounts)}: ${holdText(h)}`),
  );
  return lines.length > LISTED
    ? [...lines.slice(0, LISTED), `… and ${lines.length - LISTED} more`]
    : lines;
}

/** "row 10", "rows 10, 12": the sheet rows of the held units. */
function rowsOf(held: readonly Checked[]): string {
  const rows = held.flatMap(c => c.unit.record.rows.map(sheetRow));
  return `${rows.length === 1 ? 'row' : 'rows'} ${rows.join(', ')}`;
}

/** Why a unit is held, every held field of it. */
const whyHeld = (c: Checked) => c.holds.map(holdText).join('; ');

/** The held units and what the question, the preview or the summary say of them. */
interface HeldChanges {
  held: Checked[];
  /** "N offers". */
  offers: string;
  /** The daily caps the whole push adds, per currency. */
  totals: string;
}

export function guardBudgets(
  units: ReadonlyArray<Sending<BudgetUpdate>>,
  platform: Platform,
  dryRun: boolean,
): Guarded<BudgetUpdate> {
  const settings = new SettingsStore(platform.userProperties).guard();
  // A unit whose answer was lost went out past the guard already (nothing is sent unguarded):
  // it is read back first, never asked again, or a No would hold what the server may have.
  const changes = units
    .filter(unit => !unit.lost)
    .map(unit => {
      const before = groupsOf(unit.record.base.rows);
      const after = groupsOf(unit.record.content);
      const currency = unit.record.base.facts?.currency ?? '';
      return {
        unit,
        before,
        after,
        currency,
        holds: holdsOf(before, after, currency, settings),
      };
    });
  const held = changes.filter(c => c.holds.length > 0);
  const none = {
    send: [...units],
    held: [],
    history: (d: Parameters<Guarded<BudgetUpdate>['history']>[0]) => d,
    note: '',
    asked: false,
  };
  if (held.length === 0) return none;
  const found: HeldChanges = {
    held,
    offers: counted(held.length, 'offer'),
    totals: totalsText(capTotals(changes)),
  };
  if (dryRun) return {...none, ...previewHeld(found)};
  const answer = askToSend(platform, found);
  return answer === true
    ? {...none, ...sendConfirmed(found), asked: true}
    : holdBack(units, found, answer);
}

/** A preview lists the held units and asks nothing. */
function previewHeld({
  held,
  offers,
  totals,
}: HeldChanges): Pick<Guarded<BudgetUpdate>, 'held' | 'note'> {
  return {
    held: held.map(c => ({
      unit: c.unit,
      message: `Preview: held by the budget guard (${whyHeld(c)}). A push asks you before sending it.`,
    })),
    note: ` The budget guard holds ${offers} (a push asks before sending them): ${listing(held).join('; ')}. This push adds to the daily caps: ${totals}.`,
  };
}

/** The one Yes/No question: true, false, or null when no one can answer. */
function askToSend(
  platform: Platform,
  {held, offers, totals}: HeldChanges,
): boolean | null {
  return platform.ui.confirm(
    GUARD_TITLE,
    [
      `The budget guard holds ${offers} of this push:`,
      ...listing(held).map(line => `• ${line}`),
      '',
      `This push adds to the daily caps: ${totals}.`,
      '',
      'Yes sends them with the rest. No sends the rest only: the held rows keep your edits, unsent.',
    ].join('\n'),
  );
}

/** After a Yes every unit is sent, and the History rows of the held ones say they were confirmed. */
function sendConfirmed({
  held,
  offers,
}: HeldChanges): Pick<Guarded<BudgetUpdate>, 'history' | 'note'> {
  const confirmed = new Map(held.map(c => [c.unit.record, whyHeld(c)]));
  return {
    history: d => {
      const reason = confirmed.get(d.record);
      return reason === undefined
        ? d
        : {
            ...d,
            message: `Confirmed past the budget guard (${reason}). ${d.message}`,
          };
    },
    note: ` You confirmed ${offers} past the budget guard.`,
  };
}

/** After a No, or with no one to answer, the held units stay behind and their rows say why. */
function holdBack(
  units: ReadonlyArray<Sending<BudgetUpdate>>,
  {held, offers}: HeldChanges,
  answer: false | null,
): Guarded<BudgetUpdate> {
  const because =
    answer === false
      ? 'you answered No'
      : 'no one could answer (a scheduled run, or a window that cannot show a question)';
  const keep = new Set(held.map(c => c.unit));
  return {
    send: units.filter(u => !keep.has(u)),
    held: held.map(c => ({
      unit: c.unit,
      message: `${HELD_BY_GUARD} (${whyHeld(c)}): not sent, as ${because}. Push again from the menu or the sidebar and answer Yes to send it, change the row, or turn holding off in the sidebar's settings.`,
    })),
    history: d => d,
    asked: answer === false,
    note: ` The budget guard held ${offers} (${rowsOf(held)}): not sent, as ${because}.`,
  };
}
