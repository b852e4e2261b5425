/**
 * What a due change does, from the server's record read now: sent (a changed record whose base
 * is that record, its request the push's own, as-record.ts), or CONFLICT where the server no
 * longer holds the value it replaces. A request whose answer was lost is read back by the
 * push's delivery (send.ts).
 */
import {keyParts, recordKey} from '../../sheets/accounts';
import {
  fieldTexts,
  historyText,
  shiftContent,
  splitField,
} from '../../sheets/history-fields';
import {EMPTY} from '../../sheets/rows';
import {Column, editableOf} from '../../sheets/schema';
import {ScheduledStatus} from '../../sheets/scheduled';
import {accountOfLabel} from '../connect';
import {failureMessage} from '../host/menu-messages';
import {heldRecord, readBack} from '../read-back';
import {Job} from '../kernel';
import {BUDGETS_PUSH} from '../push/push-budgets';
import {CAMPAIGNS_PUSH} from '../push/push-campaigns';
import type {ChangedRecord, PushSpec} from '../push/push-spec';
import {trackingPush} from '../push/push-tracking';
import {asRecord, requestOf} from './as-record';
import {Item, SIDES, Tally, changesOf} from './due';

export type AnySpec = PushSpec<never, unknown>;

/** The pushes whose changes can be scheduled, each known by its sheet. */
export const SPECS = [
  BUDGETS_PUSH,
  CAMPAIGNS_PUSH,
  // Applying builds nothing from the sheet: the default that stood in is a row of the change.
  trackingPush(''),
] as unknown as readonly AnySpec[];

export function specOf(
  specs: readonly AnySpec[],
  sheet: string,
): AnySpec | undefined {
  return specs.find(spec => spec.schema.name === sheet);
}

/** What the server holds of a record, as canonical content. */
interface Held {
  content: string[][];
  /** A field the server did not list: its cells hold what the add-on last sent. */
  unlisted?: string;
}

/** What the server holds of the records, by record key; or why it could not be read. */
export type Server = Map<string, Held> | {failed: string};

/**
 * What the server holds of each item's record, by record key (a field the list never returns
 * as the add-on last sent it: read-back.ts heldRecord); or why it could not be read: the whole
 * read, or the item's account's alone.
 */
export function readServer(
  job: Job,
  spec: AnySpec,
  items: readonly Item[],
  tally: Tally,
): (item: Item) => Server {
  const back = readBack(
    spec,
    items.map(i => ({account: accountOfLabel(i.account)!, id: i.record})),
    {
      clientFor: account => job.connected.clientFor(account),
      context: job.workbook,
    },
  );
  tally.requests += back.requests;
  if ('failed' in back) {
    const failed = {failed: failureMessage(back.error)};
    return () => failed;
  }
  const held = new Map(
    [...back.listed].map(([key, rows]): [string, Held] => [
      key,
      heldRecord(spec.schema, rows, job.book, keyParts(key).id),
    ]),
  );
  // An account whose read failed holds back its own records alone.
  return item => {
    const unread = back.unread?.get(accountOfLabel(item.account)!);
    if (!unread) return held;
    return {
      failed: unread.error ? failureMessage(unread.error) : unread.failed,
    };
  };
}

type Decided =
  | {
      /** The changed record it sends: its base the server's, its content the change made. */
      record: ChangedRecord;
      request: unknown;
      note: string;
      /** Fields that cannot go back (not known before the change), and what their rows say. */
      unsettable?: {fields: string[]; message: string};
    }
  | {status: ScheduledStatus; message: string};

/** What to do with one item, from what the server holds. */
export function decide(
  job: Job,
  spec: AnySpec,
  item: Item,
  server: Server,
): Decided {
  const {id, name} = {id: spec.schema.id, name: spec.schema.name};
  if (!(server instanceof Map)) {
    // Nothing left: the rows stay as they were, for the next run (within the grace).
    return {
      status: item.entries[0].status as ScheduledStatus,
      message: `Not sent yet: reading ${id} ${item.record} first failed (${server.failed}). The next scheduled run tries again.`,
    };
  }
  const held = server.get(
    recordKey(accountOfLabel(item.account)!, item.record),
  );
  if (!held) {
    return {
      status: 'ERROR',
      message: `Not sent: the server does not list ${id} ${item.record} (deleted, or not this account's).`,
    };
  }
  const changes = changesOf(item);
  const [from, to] = SIDES[item.phase];
  const blind = (c: {field: string}) =>
    held.unlisted !== undefined && splitField(c.field).header === held.unlisted;
  // A field the add-on did not know before the change has nothing to go back to.
  const unknownBefore = changes.filter(
    c => item.phase === 'revert' && blind(c) && c.before.trim() === '',
  );
  const moving = changes.filter(c => !unknownBefore.includes(c));
  const unsettable =
    unknownBefore.length > 0
      ? `Not put back: ${held.unlisted} before this change was not known to Offer Desk (the server does not list it, and no push from here had sent it), so there is nothing to put back: it stays as the change set it.`
      : '';
  if (moving.length === 0) return {status: 'ERROR', message: unsettable};
  const shifted = shiftContent(spec.schema, held.content, moving, from, to);
  if (!shifted.ok) {
    const unlisted = shifted.fields.some(field => blind({field}))
      ? `; ${held.unlisted}, which the server does not list, as Offer Desk last sent it`
      : '';
    // The after value is as typed, not as read: the server may keep it in its own form.
    const holds = shifted.fields
      .map(field => {
        const change = moving.find(c => c.field === field)!;
        return `${field} ${fieldTexts(spec.schema, held.content, change)?.now ?? EMPTY}`;
      })
      .join(', ');
    const why =
      item.phase === 'revert'
        ? `: it holds ${holds} (the server's own form of what was sent, or a change made since${unlisted})`
        : ` (changed since it was scheduled${unlisted})`;
    return {
      status: 'CONFLICT',
      message: `Not sent: the server no longer holds the ${from} value of ${shifted.fields.join(', ')} of ${name} ${id} ${item.record}${why}, so nothing was sent for it.`,
    };
  }
  const columns = editableOf(spec.schema) as ReadonlyArray<Column<never>>;
  const k = columns.findIndex(c => c.header === held.unlisted);
  if (k >= 0 && shifted.content.some(row => row[k] === EMPTY)) {
    return {
      status: 'ERROR',
      message: `Not sent: its request must carry ${held.unlisted}, and the value the server holds is not known to Offer Desk (the server does not list it, no push from here has sent it, and this change does not set it). Push it from the ${item.sheet} sheet instead, deciding ${held.unlisted} there.`,
    };
  }
  const note =
    k < 0
      ? ''
      : moving.some(blind)
        ? ` ${held.unlisted} is not listed by the server: its ${from} value was compared with what Offer Desk last sent, not with the server's.`
        : ` ${held.unlisted} went out as Offer Desk last sent it (${historyText(columns[k], shifted.content[0][k])}): the server does not list it.`;
  const record = asRecord(spec.schema, job.book, {
    account: accountOfLabel(item.account)!,
    id: item.record,
    base: held.content,
    content: shifted.content,
    edited: moving.map(c => splitField(c.field).header),
  });
  const built = requestOf(spec, job, record);
  if ('refused' in built) {
    return {
      status: 'ERROR',
      message: `Not sent: the rules of ${name} refuse it as it would be now: ${built.refused}`,
    };
  }
  return {
    record,
    request: built.request,
    note,
    ...(unknownBefore.length > 0
      ? {
          unsettable: {
            fields: unknownBefore.map(c => c.field),
            message: unsettable,
          },
        }
      : {}),
  };
}
