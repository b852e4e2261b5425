/**
 * A scheduled change whose request left in an earlier run with no answer recorded, as the unit
 * the push's delivery reads back before anything else (push/push-delivery.ts): what it sent
 * (its outbox entry's content) and what the record held before it (that content with the
 * change's fields as they were). Delivered once: reading back settles it, never a resend.
 */
import {
  fieldTexts,
  shiftContent,
  splitField,
} from '../../sheets/history-fields';
import {recordKey} from '../../sheets/accounts';
import {Job} from '../kernel';
import {accountOfLabel} from '../connect';
import type {Sending} from '../push/push-spec';
import {asRecord, requestOf} from './as-record';
import type {AnySpec, Server} from './decide';
import {Item, SIDES, changesOf, outKey} from './due';

/** Why its answer is not known, as a row and History tell it after the lost answer. */
const NO_ANSWER = 'no answer was recorded';

/** What the item's request sent, as its outbox entry keeps it ([]: an earlier release's). */
export function sentOf(job: Job, item: Item): string[][] {
  const key = outKey({...item, change_id: item.entries[0].change_id});
  return job.outbox.find('write', key)?.request.sent ?? [];
}

/**
 * The lost item as a unit to read back; or, where what it sent is not recorded (an earlier
 * release's mark) and the server's record cannot tell it either, why (`unread`: read it again
 * next run; `neither`: it holds neither side of the change).
 */
export function lostUnit(
  job: Job,
  spec: AnySpec,
  item: Item,
  server: Server | undefined,
):
  | {unit: Sending<unknown>}
  | {unread: string; unlisted: boolean}
  | {neither: string} {
  const changes = changesOf(item);
  const [from, to] = SIDES[item.phase];
  const account = accountOfLabel(item.account)!;
  let sent = sentOf(job, item);
  let moved = changes;
  let before: string[][];
  if (sent.length > 0) {
    // A field its run could not move (not known before the change) went as it was.
    moved = changes.filter(c => {
      const texts = fieldTexts(spec.schema, sent, c);
      return texts !== undefined && texts.now === texts[to];
    });
    const back = shiftContent(spec.schema, sent, moved, to, from);
    before = back.ok ? back.content : sent;
  } else {
    const held =
      server instanceof Map
        ? server.get(recordKey(account, item.record))
        : undefined;
    if (!held) {
      return server instanceof Map
        ? {
            unread: `reading it back did not list ${spec.schema.id} ${item.record}`,
            unlisted: true,
          }
        : {
            unread: `reading it back failed (${server?.failed})`,
            unlisted: false,
          };
    }
    const ahead = shiftContent(spec.schema, held.content, changes, from, to);
    const back = shiftContent(spec.schema, held.content, changes, to, from);
    if (back.ok) [sent, before] = [held.content, back.content];
    else if (ahead.ok) [sent, before] = [ahead.content, held.content];
    else {
      const shows = changes
        .map(
          c =>
            `${c.field} ${fieldTexts(spec.schema, held.content, c)?.now ?? ''}`,
        )
        .join(', ');
      return {
        neither: `reading it back shows ${shows}, neither what was sent nor what it was (the server's own form of it, or a change made since)`,
      };
    }
  }
  const record = asRecord(spec.schema, job.book, {
    account,
    id: item.record,
    base: before,
    content: sent,
    edited: [...new Set(moved.map(c => splitField(c.field).header))],
  });
  const built = requestOf(spec, job, record);
  return {
    unit: {
      record,
      // Never sent again: its request serves only to remember what the API took.
      request: 'request' in built ? built.request : undefined,
      sends: '',
      lost: NO_ANSWER,
      once: true,
      change: item.entries[0].change_id,
    },
  };
}
