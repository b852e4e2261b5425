/**
 * What reverting one change does to one record, decided without a sheet: the record's
 * content as the change found it, staged as an edit, only where a push could send that whole
 * content back; otherwise the record's rows say why, and none of its values is rewritten.
 *
 * - The record's fields must still be as the change left them in what was last pulled or
 *   pushed (the state book): a field the server changed since makes the record CONFLICT.
 * - The content staged must pass the rules a push checks (src/rules): a budget whose old
 *   groups sit beside a group the server added since (ALL beside CA) is CONFLICT, naming the
 *   server's group; a tracking the change set on an offer that had none cannot be taken
 *   away (the API has no call to remove one): the row says so, nothing staged.
 * - Its rows must hold no unpushed edit of the user's, which putting back would overwrite:
 *   CONFLICT. Values the API refused at the last push are no such edit (the push would never
 *   send them again): revert replaces them, its message keeping the API's reason.
 * - A write the API refused (ERROR) changed nothing: rows that still hold it go back to the
 *   server's values; an UNKNOWN one is put back when the last refresh shows it was applied,
 *   and left when it shows it was not; with no refresh since a lost answer, refresh first.
 * - A field whose "before" was not known (support_server_click, which the list never returns)
 *   is not emptied: it keeps what the server is last known to hold, and the message says so.
 * Statuses carry information: a row that said ERROR or CONFLICT keeps what it said in the
 * message that replaces it.
 */
import {renderDetails} from '../../api/errors';
import {checkMaintainedBy} from '../../rules/maintain';
import {excerpt} from '../../rules/values';
import {fromCanonical} from '../../sheets/codec';
import {
  FieldChange,
  historyText,
  shiftContent,
  splitField,
} from '../../sheets/history-fields';
import {EMPTY, sameContent} from '../../sheets/rows';
import {SheetSchema, editableOf} from '../../sheets/schema';
import type {RecordState} from '../../sheets/pulled';
import {clipped} from '../../text/wording';
import type {FieldMessages} from '../../rules/maintain';
import type {Opened, RecordRules} from '../push/push-spec';
import type {SyncStatus} from '../../sheets/status';

/** What one change did to one record, from History. */
export interface RecordChange {
  /** Whose record ('' the main account), as History names it. */
  account: string;
  id: string;
  outcome: string;
  fields: FieldChange[];
}

/** A later run's accepted change of the same record, from History. */
export interface LaterChange {
  changeId: string;
  /** As History shows it, in the spreadsheet's time zone. */
  time: string;
  fields: FieldChange[];
}

/** One record as revert finds it. */
export interface RevertInput {
  schema: SheetSchema<never>;
  /** The rules the sheet's push checks (absent: reverted unchecked). */
  rules?: RecordRules;
  /** What the revert decoded of the sheet, for rules that look at the other records. */
  opened?: Opened;
  changeId: string;
  change: RecordChange;
  /** What was last pulled or pushed; undefined: not in the last refresh. */
  base: RecordState | undefined;
  /** What a push sent of it whose answer was lost, still out (SheetRecord.out). */
  out?: string[][];
  /** Its editable content in the sheet now (contentOf); undefined: no rows. */
  content: string[][] | undefined;
  /** Why a push refuses the record whatever its values (its id in several rows). */
  refusedWhole?: string;
  /** The status and message of its rows now (the first saying ERROR or CONFLICT, if any). */
  said: {status: string; message: string};
  /** Its accepted changes of later runs, newest first: read only when a field moved since. */
  later?: () => readonly LaterChange[];
}

export type RevertPlan =
  /** Nothing to do: already as before, or never changed. */
  | {kind: 'unchanged'}
  /** Rows untouched; the revert's summary says why. */
  | {kind: 'note'; message: string}
  /** Every row gets this status and message; no value changes. */
  | {kind: 'mark'; status: SyncStatus; message: string}
  /** The rows take this content, status and message. */
  | {
      kind: 'put';
      content: string[][];
      status: SyncStatus | '';
      message: string;
      /** Back to the server's values: a change the server never took. */
      withdrawn: boolean;
    };

/** The longest quote of what a row said before: in full, the API's reason is the point. */
const SAID_LENGTH = 500;

type Marked = Extract<RevertPlan, {kind: 'mark'}>;

export function planRevert(input: RevertInput): RevertPlan {
  const {schema, changeId, change, base, content} = input;
  const label = `${schema.id} ${change.id}`;
  const refused = change.outcome === 'ERROR';
  const first = cannotStart(input);
  if (first || !base || !content) return first ?? {kind: 'unchanged'};
  const known = withDecisions(schema, base.rows, content);
  const {fields, keep} = unknownBefore(schema, known, change.fields);
  const shift = (from: 'before' | 'after') =>
    shiftContent(schema, known, fields, from, 'before');
  // The server does not hold the change (refused, or not there at the last refresh).
  if (refused || shift('before').ok) return withdraw(input, base, content);
  const managed = checkMaintainedBy(base.facts?.maintain_by).maintain_by;
  if (managed) return refusedWhole(input, `maintain_by: ${managed}`);
  const kept = (message: string) => keepSaid(message, input.said, changeId);
  const target = shift('after');
  if (!target.ok) {
    const ours = movedByUs(input, known, target.fields);
    if (ours) {
      // The server did not move it: no CONFLICT on rows that may be healthy.
      return {
        kind: 'note',
        message: `Not reverted: change ${ours.changeId} of ${ours.time}, pushed from this spreadsheet after change ${changeId}, set ${target.fields.join(', ')} of ${label} since (the server did not change ${target.fields.length === 1 ? 'it' : 'them'}). Revert the later changes first, newest first, or edit the rows by hand. Your rows are unchanged.`,
      };
    }
    return {
      kind: 'mark',
      status: 'CONFLICT',
      message: kept(
        `Not reverted: the server changed ${target.fields.join(', ')} of ${label} since change ${changeId} (as last refreshed). Your rows are unchanged; edit them by hand if you still want the old values.`,
      ),
    };
  }
  if (sameContent(content, target.content)) return {kind: 'unchanged'};
  const refusal = pushRefusal(input, base, known, fields, target.content);
  if (refusal) return {...refusal, message: kept(refusal.message)};
  const reverts = `Reverts change ${changeId} (${backTo(fields)}): not pushed yet.${keep}`;
  const put = (message: string): Extract<RevertPlan, {kind: 'put'}> => ({
    kind: 'put',
    content: target.content,
    status: 'EDITED',
    message: `${reverts} ${message}Preview, then push to send it.`,
    withdrawn: false,
  });
  if (sameContent(content, known)) {
    const plan = put('');
    return {...plan, message: kept(plan.message)};
  }
  // Values the API refused at the last push: the push never sends them again, so they are
  // no edit of the user's to keep. The API's reason stays in the message.
  if (sameContent(content, base.refused))
    return put(
      `It replaces values the API refused at the last push (${clipped(input.said.message, SAID_LENGTH)}). `,
    );
  return {
    kind: 'mark',
    status: 'CONFLICT',
    message: kept(
      `Not reverted: ${label} has edits not pushed yet, which reverting change ${changeId} would overwrite. Push or undo them, then revert again.`,
    ),
  };
}

/** Why revert cannot look at the record at all: not pulled, in two rows, outcome unknown. */
function cannotStart(input: RevertInput): RevertPlan | null {
  const {schema, changeId, change, base, content} = input;
  const label = `${schema.id} ${change.id}`;
  const refused = change.outcome === 'ERROR';
  if (!base || !content) {
    if (refused) return null;
    return {
      kind: 'note',
      message: `${label} is not in ${schema.name}: refresh it, then revert ${changeId} again.`,
    };
  }
  if (input.refusedWhole) return refusedWhole(input, input.refusedWhole);
  const twice = fieldInTwoRows(change.fields);
  if (twice) {
    return {
      kind: 'mark',
      status: (input.said.status || '') as SyncStatus,
      message: keepSaid(
        `Not reverted: History holds two different rows for ${twice} of ${label} in change ${changeId} (a row copied or typed over): delete the one Offer Desk did not write, then revert again. Your rows are unchanged.`,
        input.said,
        changeId,
      ),
    };
  }
  // The state still holds what the server had before a push whose answer was lost: it
  // cannot tell whether the change is there to put back, and only a refresh can.
  if (input.out && !refused) {
    return {
      kind: 'note',
      message: `Whether ${label} holds change ${changeId} is not known (the answer to a push of it was lost, and no refresh since shows it): refresh ${schema.name}, then revert ${changeId} again. Its rows were not changed.`,
    };
  }
  return null;
}

/** A field the change holds twice with other values (History is the user's to edit too). */
function fieldInTwoRows(fields: readonly FieldChange[]): string | undefined {
  const seen = new Map<string, FieldChange>();
  for (const f of fields) {
    const other = seen.get(f.field);
    if (other && (other.before !== f.before || other.after !== f.after))
      return f.field;
    seen.set(f.field, f);
  }
  return undefined;
}

/** A record a push refuses whatever its values: its rows say why, their status kept. */
function refusedWhole(input: RevertInput, why: string): RevertPlan {
  const label = `${input.schema.id} ${input.change.id}`;
  return {
    kind: 'mark',
    status: (input.said.status || '') as SyncStatus,
    message: keepSaid(
      `Not reverted: a push would refuse ${label} whatever its values (${why.replace(/\.$/, '')}). Your rows are unchanged.`,
      input.said,
      input.changeId,
    ),
  };
}

/**
 * A change the server does not hold: rows that still hold it would have the next push send it
 * again, so they go back to the server's values, which is what reverting it means.
 */
function withdraw(
  input: RevertInput,
  base: RecordState,
  content: string[][],
): RevertPlan {
  const {schema, change, changeId} = input;
  const pending = shiftContent(
    schema,
    base.rows,
    change.fields,
    'before',
    'after',
  );
  if (
    !pending.ok ||
    !sameContent(content, pending.content) ||
    sameContent(content, base.rows)
  )
    return {kind: 'unchanged'};
  const why =
    change.outcome === 'ERROR' ? 'refused' : 'not there at the last refresh';
  return {
    kind: 'put',
    content: base.rows,
    status: '',
    message: keepSaid(
      `Reverts change ${changeId}, which the server did not take (${why}): the row is back to the server's values (${backTo(change.fields)}), so a push sends nothing for it.`,
      input.said,
      changeId,
    ),
    withdrawn: true,
  };
}

/**
 * Why a push would refuse the reverted content, asked of the push's own rules (push-spec.ts
 * RecordRules), as the record's plan: CONFLICT where the server holds a row the change did not
 * set (a budget group added since), else the reason on the rows with their status kept. A
 * column the list never returns is not judged: whether its value is known is the push's own
 * question, asked once when it sends (push-tracking.ts).
 */
function pushRefusal(
  input: RevertInput,
  base: RecordState,
  known: readonly string[][],
  fields: readonly FieldChange[],
  target: readonly string[][],
): Marked | null {
  const {schema, changeId, change, rules} = input;
  if (!rules) return null;
  const verdict = rules.check(
    target.map(texts => valuesOf(schema, texts)),
    {
      account: change.account,
      id: change.id,
      base,
      edited: [...new Set(fields.map(f => splitField(f.field).header))],
      opened: input.opened,
    },
  );
  const unlisted = new Set(
    editableOf(schema)
      .filter(c => c.unlisted)
      .map(c => c.header),
  );
  const found: FieldMessages = Object.assign(
    {},
    ...verdict.rows,
    verdict.whole,
  );
  const problems = renderDetails(
    Object.fromEntries(
      Object.entries(found).filter(([field]) => !unlisted.has(field)),
    ),
  );
  if (problems === '') return null;
  const label = `${schema.id} ${change.id}`;
  const keep = (input.said.status || '') as SyncStatus;
  const {setOnce} = rules;
  if (
    setOnce &&
    fields.some(
      f => f.before === '' && splitField(f.field).header === setOnce.header,
    )
  ) {
    return {
      kind: 'mark',
      status: keep,
      message: `Not reverted: ${setOnce.words(label, changeId)}`,
    };
  }
  const whole = rules.whole ?? 'values';
  const touched = new Set(fields.map(f => splitField(f.field).group ?? ''));
  const added = schema.rowKey
    ? groupLabels(schema, known).filter(g => !touched.has(g))
    : [];
  if (added.length > 0) {
    return {
      kind: 'mark',
      status: 'CONFLICT',
      message: `Not reverted: the server's ${whole} of ${label} has ${added.join(', ')} since change ${changeId} (as last refreshed), a group the change did not set: the groups before it beside ${added.length > 1 ? 'those' : 'it'} would be refused by a push (${problems}). Your rows are unchanged; edit them by hand if you still want the old ${whole}.`,
    };
  }
  return {
    kind: 'mark',
    status: keep,
    message: `Not reverted: a push would refuse the ${whole} before change ${changeId} (${problems}). Your rows are unchanged.`,
  };
}

/** A content row's values by header, as a push decodes them. */
function valuesOf(
  schema: SheetSchema<never>,
  texts: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(
    editableOf(schema).map((c, k) => [
      c.header,
      fromCanonical(texts[k] ?? EMPTY),
    ]),
  );
}

/** The labels of a budget's groups, as History names them: `US,CA`. */
function groupLabels(
  schema: SheetSchema<never>,
  content: readonly string[][],
): string[] {
  const columns = editableOf(schema);
  const keys = (schema.rowKey ?? []).map(h =>
    columns.findIndex(c => c.header === h),
  );
  return content.map(row =>
    keys.map(k => historyText(columns[k], row[k]) || '(none)').join(' '),
  );
}

/**
 * The later change of ours that moved these fields: the newest later change of the record
 * that touched any of them, when it set all of them and the server is last known to hold
 * every value it set (else the server may have changed them since, and it says so).
 */
function movedByUs(
  input: RevertInput,
  known: readonly string[][],
  moved: readonly string[],
): LaterChange | undefined {
  const newest = input
    .later?.()
    .find(l => l.fields.some(f => moved.includes(f.field)));
  if (!newest) return undefined;
  const all = moved.every(f => newest.fields.some(c => c.field === f));
  return all &&
    shiftContent(input.schema, known, newest.fields, 'after', 'before').ok
    ? newest
    : undefined;
}

/** What the rows said before, kept where it was ERROR or CONFLICT (of another change). */
function keepSaid(
  message: string,
  said: {status: string; message: string},
  changeId: string,
): string {
  if (said.status !== 'ERROR' && said.status !== 'CONFLICT') return message;
  if (said.message.includes(changeId)) return message;
  return `${message} Before this revert the row said ${said.status}: ${clipped(said.message, SAID_LENGTH)}`;
}

/** A value in a row's message: at most an excerpt, '(empty)' for none. */
function shown(text: string): string {
  return text === '' ? '(empty)' : excerpt(text, false);
}

/** "click_url: new back to old; ..." */
function backTo(fields: readonly FieldChange[]): string {
  return fields
    .map(f => `${f.field}: ${shown(f.after)} back to ${shown(f.before)}`)
    .join('; ');
}

/**
 * What the server is last known to hold, with the sheet's value in a one-row record's column
 * the list never returns where the add-on does not know it: filled there, it is the user's
 * decision for the next push (push-tracking.ts), not an edit that reverting would overwrite,
 * and revert keeps it.
 */
function withDecisions(
  schema: SheetSchema<never>,
  known: readonly string[][],
  sheet: readonly string[][],
): string[][] {
  if (schema.rowKey || known.length !== 1 || sheet.length !== 1)
    return known.map(row => [...row]);
  const columns = editableOf(schema);
  return [
    known[0].map((text, k) =>
      text === EMPTY && columns[k].unlisted ? sheet[0][k] : text,
    ),
  ];
}

/**
 * The change's fields revert puts back, and what it says of those it keeps: a field the
 * list never returns (support_server_click) had an empty "before" because the add-on did not
 * know the server's value, not because it was empty. Putting '' back would leave a row the
 * next push refuses (PUT tracking needs YES or NO), so such a field keeps what the server is
 * last known to hold (what the change sent), and the row's message says so.
 */
function unknownBefore(
  schema: SheetSchema<never>,
  now: readonly string[][],
  changes: readonly FieldChange[],
): {fields: FieldChange[]; keep: string} {
  const columns = editableOf(schema);
  const at = (f: FieldChange) =>
    columns.findIndex(c => c.header === splitField(f.field).header);
  const kept = changes.filter(f => f.before === '' && columns[at(f)]?.unlisted);
  const keep = kept
    .map(f => {
      const k = at(f);
      const value = historyText(columns[k], now[0]?.[k] ?? EMPTY);
      return ` ${f.field} stays ${value || '(empty)'}: its value before the change was not known to the add-on.`;
    })
    .join('');
  return {fields: changes.filter(f => !kept.includes(f)), keep};
}
