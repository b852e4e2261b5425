/**
 * What a due change does, from the server's record read now: sent (its request the push's own,
 * as-record.ts), CONFLICT where the server no longer holds the value it replaces, or, for a
 * request whose answer was lost, what reading it back tells.
 */
import type {Platform} from '../../platform/ports';
import {keyParts, recordKey} from '../../sheets/accounts';
import type {HistoryOutcome} from '../../sheets/history';
import {
  FieldChange,
  fieldTexts,
  historyText,
  shiftContent,
  splitField,
} from '../../sheets/history-fields';
import {EMPTY, contentOf} from '../../sheets/rows';
import {Column, editableOf} from '../../sheets/schema';
import {ScheduledStatus} from '../../sheets/scheduled';
import {accountOfLabel} from '../connect';
import {failureMessage} from '../host/menu-messages';
import {readBack, readBackSays} from '../read-back';
import {ReadBackVerdict, judgeReadBack} from '../../rules/read-back';
import {Job} from '../kernel';
import {BUDGETS_PUSH} from '../push/push-budgets';
import {CAMPAIGNS_PUSH} from '../push/push-campaigns';
import type {PushSpec} from '../push/push-spec';
import {trackingPush} from '../push/push-tracking';
import {requestOf} from './as-record';
import {zoned} from './when';
import {DONE, UNKNOWN, Item, Tally, timeOf} from './due';

export type AnySpec = PushSpec<never, unknown>;

/** The pushes whose changes can be scheduled, each known by its sheet. */
export function specsOf(platform: Platform): readonly AnySpec[] {
  return [
    BUDGETS_PUSH,
    CAMPAIGNS_PUSH,
    // Applying builds nothing from the sheet: the default that stood in is a row of the change.
    trackingPush('', () => platform.clock.now()),
  ] as unknown as readonly AnySpec[];
}

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
 * What the server holds of each item's record, by record key (a field the list does not
 * return as the add-on last sent it, where the spec knows it: `unlisted`); or why it could not
 * be read: the whole read, or the item's account's alone.
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
  const {unlisted} = spec;
  const at = editableOf(spec.schema).findIndex(
    c => c.header === unlisted?.header,
  );
  const held = new Map(
    [...back.listed].map(([key, rows]): [string, Held] => {
      const unread = at >= 0 && rows.some(row => row[at] === null);
      const known = unread
        ? unlisted!.known(job.book, keyParts(key).id)
        : undefined;
      const texts = rows.map(row =>
        row.map((text, k) => text ?? (k === at ? known : undefined) ?? EMPTY),
      );
      return [
        key,
        {
          content: contentOf(texts),
          ...(unread ? {unlisted: unlisted!.header} : {}),
        },
      ];
    }),
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
      request: unknown;
      /** The record's editable content the request carries (its outbox entry keeps it). */
      content: string[][];
      note: string;
      /** Fields that cannot go back (not known before the change), and what their rows say. */
      unsettable?: {fields: string[]; message: string};
    }
  | {
      status: ScheduledStatus;
      message: string;
      /** A request read back as applied, for the spec to remember (pushTracking). */
      accepted?: unknown;
      /** A lost request that reading back settled: what History records of it. */
      history?: HistoryOutcome;
    };

/** What to do with one item, from what the server holds. */
export function decide(
  job: Job,
  grace: number,
  spec: AnySpec,
  item: Item,
  server: Server,
): Decided {
  const {id, name} = {id: spec.schema.id, name: spec.schema.name};
  if (!(server instanceof Map)) {
    // Nothing left: the rows stay as they were, for the next run (within the grace).
    return item.unknown
      ? unreadLost(job, grace, item, {
          says: `reading it back failed (${server.failed})`,
          open: item.entries[0].message,
        })
      : {
          status: item.entries[0].status as ScheduledStatus,
          message: `Not sent yet: reading ${id} ${item.record} first failed (${server.failed}). The next scheduled run tries again.`,
        };
  }
  const held = server.get(
    recordKey(accountOfLabel(item.account)!, item.record),
  );
  if (!held && item.unknown) {
    const says = readBackSays(
      {verdict: 'cannot tell', because: {unlisted: true}},
      `${id} ${item.record}`,
    );
    return unreadLost(job, grace, item, {
      says,
      open: `${UNKNOWN[item.phase]} with no answer recorded, and ${says}: the next run reads it again.`,
      why: " (deleted, or not this account's)",
    });
  }
  if (!held) {
    return {
      status: 'ERROR',
      message: `Not sent: the server does not list ${id} ${item.record} (deleted, or not this account's).`,
    };
  }
  const changes: FieldChange[] = item.entries.map(e => ({
    field: e.field,
    before: e.before,
    after: e.after,
  }));
  const [from, to] =
    item.phase === 'apply'
      ? (['before', 'after'] as const)
      : (['after', 'before'] as const);
  const blind = (c: {field: string}) =>
    held.unlisted !== undefined && splitField(c.field).header === held.unlisted;
  if (item.unknown) return settleLost(job, spec, item, held, changes, blind);
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
  const built = requestOf(spec, job, {
    account: accountOfLabel(item.account)!,
    id: item.record,
    base: held.content,
    content: shifted.content,
    edited: moving.map(c => splitField(c.field).header),
  });
  if ('refused' in built) {
    return {
      status: 'ERROR',
      message: `Not sent: the rules of ${name} refuse it as it would be now: ${built.refused}`,
    };
  }
  return {
    request: built.request,
    content: shifted.content,
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

/**
 * An item whose request got no answer, and reading back told nothing (the list failed, or did
 * not return the record: a list may lag behind a write): it stays unknown (`open`), read
 * again by the next run, until the grace after its time; then it is left not known, never
 * sent again, nor read again.
 */
function unreadLost(
  job: Job,
  grace: number,
  item: Item,
  words: {says: string; open: string; why?: string},
): Decided {
  if (job.platform.clock.now() - timeOf(item) <= grace) {
    return {status: 'ERROR', message: words.open};
  }
  return {
    status: 'ERROR',
    message: `Outcome not known: the answer to its request was lost, and ${words.says} within ${grace / 3600_000} hours after its time${words.why ?? ''}. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`,
    history: 'UNKNOWN',
  };
}

/**
 * An item whose request got no answer, read back: settled where the server holds what was
 * sent. A field the server does not list cannot tell: a request is applied whole, so the
 * others decide; an item of that field alone stays ERROR, never sent again.
 */
function settleLost(
  job: Job,
  spec: AnySpec,
  item: Item,
  held: Held,
  changes: readonly FieldChange[],
  blind: (c: {field: string}) => boolean,
): Decided {
  const [from, to] =
    item.phase === 'apply'
      ? (['before', 'after'] as const)
      : (['after', 'before'] as const);
  const checked = changes.filter(c => !blind(c));
  if (checked.length === 0) {
    return {
      status: 'ERROR',
      message: `Outcome not known: the answer to its request was lost, and the server does not list ${held.unlisted}, so reading the record back cannot tell whether it was applied. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`,
      history: 'UNKNOWN',
    };
  }
  const verdict = judgeLost(spec, held, checked, from, to);
  if (verdict.verdict === 'not applied') {
    return {
      status: 'ERROR',
      message:
        'Not applied: read back, the server does not hold it (its request got no answer). Not sent again: schedule it again if it is still wanted.',
      history: 'ERROR',
    };
  }
  if (verdict.verdict !== 'applied') {
    return {
      status: 'ERROR',
      message: `Outcome not known: the answer to its request was lost, and ${readBackSays(verdict, `${spec.schema.id} ${item.record}`)}. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`,
      history: 'UNKNOWN',
    };
  }
  const unlisted = changes.some(blind)
    ? `; ${held.unlisted}, which the server does not list, is taken as sent with the rest (a request is applied whole)`
    : '';
  // What was sent, a field the server does not list included, for the spec to remember.
  const sent = shiftContent(
    spec.schema,
    held.content,
    changes.filter(blind),
    from,
    to,
  );
  const accepted =
    sent.ok &&
    requestOf(spec, job, {
      account: accountOfLabel(item.account)!,
      id: item.record,
      base: sent.content,
      content: sent.content,
      edited: changes.map(c => splitField(c.field).header),
    });
  return {
    status: DONE[item.phase],
    message: `Read back at ${zoned(job.workbook, job.platform.clock.now())}: the server holds it (the answer to its request was lost)${unlisted}.`,
    history: 'OK',
    ...(accepted && 'request' in accepted ? {accepted: accepted.request} : {}),
  };
}

/**
 * The read-back verdict (rules/read-back.ts) on a lost request, from the fields the server
 * lists: each is what was sent (`to`), what it was (`from`), or neither (the server's own form
 * of it, or a change made since: not known).
 */
function judgeLost(
  spec: AnySpec,
  held: Held,
  checked: readonly FieldChange[],
  from: 'before' | 'after',
  to: 'before' | 'after',
): ReadBackVerdict {
  const fields = checked.map(c => c.field);
  const texts = checked.map(c => fieldTexts(spec.schema, held.content, c));
  // A field of no column holds neither side.
  const side = (s: 'now' | 'before' | 'after') =>
    texts.map(t => (t ? t[s] : s === 'now' ? '' : EMPTY));
  return judgeReadBack({
    fields,
    empty: EMPTY,
    sent: [side(to)],
    before: [side(from)],
    changed: fields,
    server: {rows: [side('now')], blind: new Set()},
  });
}
