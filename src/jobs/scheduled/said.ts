/**
 * What a scheduled run's rows say of each outcome the push's delivery told of their change
 * (push/push-delivery.ts Outcome), and what History records of it: the delivery keeps the
 * push's words, the Scheduled sheet has statuses and words of its own (OK, REVERTED, ERROR),
 * and the grace after which a lost answer that reading back cannot tell is left not known.
 */
import type {HistoryOutcome} from '../../sheets/history';
import {splitField} from '../../sheets/history-fields';
import type {ScheduledStatus} from '../../sheets/scheduled';
import type {SheetSchema} from '../../sheets/schema';
import {failureMessage} from '../host/menu-messages';
import type {Job} from '../kernel';
import {readBackSays} from '../read-back';
import type {Told} from '../push/push-delivery';
import {zoned} from './when';
import {DONE, UNKNOWN, Item, timeOf} from './due';

/** A unit handed to the delivery, and what the scheduled run knows of it. */
export interface Carried {
  item: Item;
  /** Added to its rows' message once accepted (how a field the server does not list went). */
  note: string;
  /** What its rows said before they were marked as out. */
  was: Array<[ScheduledStatus, string]>;
  /** Marked as out at take-off in this run (its answer, if lost, is this run's news). */
  out: boolean;
}

/** What the words of one sheet's delivery in one phase need of the run. */
export interface Saying {
  job: Job;
  /** How late a due change may still go out, in ms. */
  grace: number;
  /** The History log of the phase: its change is the one the rows cite. */
  log: {changeId: string};
  schema: SheetSchema<never>;
}

/** What an outcome makes of a unit's rows, and of its History. */
export interface Said {
  status: ScheduledStatus;
  message: string;
  /** What History records of it; none: nothing new (still unknown, as a run before said). */
  history?: {outcome: HistoryOutcome; message: string};
  /** The History change its rows now cite as the one that sent it. */
  sentAs?: string;
  /** Its outbox entry is given up: not known, read no more. */
  givenUp?: boolean;
}

/** The Scheduled rows' status and words for what the delivery told of a unit. */
export function saidOf(
  saying: Saying,
  told: Told<unknown>,
  {item, note, was, out}: Carried,
): Said {
  const {job, log, schema} = saying;
  const {phase} = item;
  const at = zoned(job.workbook, job.platform.clock.now());
  const {outcome} = told;
  if (outcome.kind === 'sent') {
    if (phase === 'revert') {
      // The row keeps the record of the send; History cites the change it puts back.
      const [{sentAs, change_id}] = item.entries;
      return {
        status: 'REVERTED',
        message: `${was[0][1]} Put back at ${at}: History change ${log.changeId}.${note}`,
        history: {
          outcome: 'OK',
          message: `Put back at ${at}: reverts ${sentAs ? `History change ${sentAs}, ` : ''}scheduled change ${change_id}.${note}`,
        },
      };
    }
    const message = `Sent at ${at}: History change ${log.changeId}.${note}`;
    const [{revertAt}] = item.entries;
    return {
      status: 'OK',
      message: Number.isNaN(revertAt)
        ? message
        : `${message} To be put back at ${zoned(job.workbook, revertAt)}.`,
      history: {outcome: 'OK', message},
      sentAs: log.changeId,
    };
  }
  if (outcome.kind === 'refused') {
    const message = `Refused at ${at}: ${failureMessage(outcome.error)} History change ${log.changeId}.`;
    return {status: 'ERROR', message, history: {outcome: 'ERROR', message}};
  }
  if (outcome.kind !== 'read back') {
    throw new Error(`a scheduled unit is never ${outcome.kind}`);
  }
  const {step, verdict} = outcome;
  const says = readBackSays(verdict, `${schema.id} ${item.record}`);
  const closed = (status: ScheduledStatus, o: HistoryOutcome, m: string) => ({
    status,
    message: m,
    history: {outcome: o, message: m},
  });
  const unlisted = unlistedOf(schema, item);
  switch (step) {
    case 'confirm':
      return {
        ...closed(
          DONE[phase],
          'OK',
          `Read back at ${at}: the server holds it (the answer to its request was lost)${unlisted.length > 0 ? `; ${unlisted.join(', ')}, which the server does not list, ${unlisted.length === 1 ? 'is' : 'are'} taken as sent with the rest (a request is applied whole)` : ''}.`,
        ),
        ...(out ? {sentAs: log.changeId} : {}),
      };
    case 'send next time':
      return verdict.verdict === 'not applied'
        ? closed(
            'ERROR',
            'ERROR',
            'Not applied: read back, the server does not hold it (its request got no answer). Not sent again: schedule it again if it is still wanted.',
          )
        : notKnown(
            item,
            `the server does not list ${unlisted.join(', ')}, so reading the record back cannot tell whether it was applied`,
          );
    case 'keep as sent':
      return notKnown(item, says);
    default:
      return unreadLost(
        saying,
        {item, out},
        {
          says,
          unlisted:
            verdict.verdict === 'cannot tell' && 'unlisted' in verdict.because,
        },
      );
  }
}

/** A lost answer left not known: `why`, reading back cannot tell. */
export function notKnown(item: Item, why: string): Said {
  const message = `Outcome not known: the answer to its request was lost, and ${why}. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`;
  return {status: 'ERROR', message, history: {outcome: 'UNKNOWN', message}};
}

/**
 * A lost answer that reading back told nothing of (the list failed, or did not return the
 * record: a list may lag behind a write): it stays unknown, read again by the next run, until
 * the grace after its time; then it is left not known, never sent again, nor read again.
 */
export function unreadLost(
  {job, grace, log}: Saying,
  {item, out}: {item: Item; out: boolean},
  {says, unlisted}: {says: string; unlisted: boolean},
): Said {
  if (out) {
    const message = `${UNKNOWN[item.phase]} at ${zoned(job.workbook, job.platform.clock.now())}, and its answer was lost; ${says}: the next run reads the record to tell what became of it. History change ${log.changeId}.`;
    return {
      status: 'ERROR',
      message,
      history: {outcome: 'UNKNOWN', message},
    };
  }
  if (job.platform.clock.now() - timeOf(item) <= grace) {
    return {
      status: 'ERROR',
      message: unlisted
        ? `${UNKNOWN[item.phase]} with no answer recorded, and ${says}: the next run reads it again.`
        : item.entries[0].message,
    };
  }
  const message = `Outcome not known: the answer to its request was lost, and ${says} within ${grace / 3600_000} hours after its time${unlisted ? " (deleted, or not this account's)" : ''}. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`;
  return {
    status: 'ERROR',
    message,
    history: {outcome: 'UNKNOWN', message},
    givenUp: true,
  };
}

/** The headers of an item's fields that the server's list never returns. */
function unlistedOf(schema: SheetSchema<never>, item: Item): string[] {
  const headers = new Set(item.entries.map(e => splitField(e.field).header));
  return schema.columns
    .filter(c => c.unlisted && headers.has(c.header))
    .map(c => c.header);
}
