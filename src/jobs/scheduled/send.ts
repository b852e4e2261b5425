/**
 * Sends the due changes of a scheduled run: each round's records read together, decided, then
 * sent in chunks inside the time budget, each chunk's requests posted to the outbox (a
 * `write` of the job `scheduled push` or `scheduled revert`, named by its change: due.ts
 * outEntry) and its rows marked before they leave, and settled once the answers are in, with
 * History, before the next chunk leaves. A lost answer keeps its entry: the next run reads
 * the record back (decide.ts) and settles it, or keeps it until the grace after its time.
 */
import {OutcomeUnknownError} from '../../api/errors';
import type {HistoryOutcome} from '../../sheets/history';
import {ScheduledStatus} from '../../sheets/scheduled';
import {ChangeLog} from '../change-log';
import {accountOfLabel} from '../connect';
import {failureMessage} from '../host/menu-messages';
import {Job} from '../kernel';
import {zoned} from './when';
import {
  Phase,
  JOB,
  UNKNOWN,
  Item,
  outEntry,
  outKey,
  Tally,
  graceMs,
  timeOf,
  roundsOf,
} from './due';
import {AnySpec, specsOf, specOf, Server, readServer, decide} from './decide';
import {View} from './view';

/** What a run carries from chunk to chunk. */
interface Run {
  specs: readonly AnySpec[];
  /** How late a due change may still go out, in ms. */
  grace: number;
  mark: Mark;
  logs: Record<Phase, ChangeLog>;
  tally: Tally;
}

type Mark = (
  item: Item,
  status: ScheduledStatus,
  message: string,
  counts?: boolean,
) => void;

/** Marks an item's rows, counting them in the tally unless told not to (a passing mark). */
function marker(view: View, tally: Tally): Mark {
  return (item, status, message, counts = true) => {
    for (const entry of item.entries) view.mark(entry, status, message);
    if (!counts) return;
    const n = item.entries.length;
    if (status === 'OK') tally.applied += n;
    else if (status === 'REVERTED') tally.reverted += n;
    else if (status === 'CONFLICT') tally.conflict += n;
    else if (status === 'ERROR') tally.error += n;
    if (status === 'CONFLICT' || status === 'ERROR') {
      tally.problems.push(
        ...item.entries.map(
          e => `${e.sheet} ${e.record} ${e.field}: ${status}: ${message}`,
        ),
      );
    }
  };
}

export function applyItems(
  job: Job,
  view: View,
  items: readonly Item[],
  tally: Tally,
): void {
  const run: Run = {
    specs: specsOf(job.platform),
    grace: graceMs(job.platform),
    mark: marker(view, tally),
    logs: {
      apply: new ChangeLog(job.platform, JOB.apply, job.account),
      revert: new ChangeLog(job.platform, JOB.revert, job.account),
    },
    tally,
  };
  const live = items.filter(item => sendable(job, run, item));
  const rounds = roundsOf(live);
  let done = 0;
  while (done < rounds.length && applyRound(job, view, run, rounds[done]))
    done++;
  for (const item of rounds.slice(done + 1).flat())
    tally.left += item.entries.length;
}

/** Whether an item may go out: else it is marked ERROR (missed its time, no account, …). */
function sendable(job: Job, run: Run, item: Item): boolean {
  const now = job.platform.clock.now();
  const {grace} = run;
  const at = timeOf(item);
  const account = accountOfLabel(item.account);
  const [{revertAt}] = item.entries;
  if (!item.unknown && item.phase === 'apply' && revertAt <= now) {
    run.mark(
      item,
      'ERROR',
      `Missed its window: due at ${zoned(job.workbook, at)} and to be put back at ${zoned(job.workbook, revertAt)}, and no scheduled run came before the put-back. Not sent, nor put back: schedule it again if it is still wanted.`,
    );
    return false;
  }
  if (!item.unknown && now - at > grace) {
    run.mark(
      item,
      'ERROR',
      `Missed its time${item.phase === 'revert' ? ' to be put back' : ''}: due at ${zoned(job.workbook, at)}, and no scheduled run came within ${grace / 3600_000} hours after (the schedule was off or paused, or Google asked for authorization again). ${item.phase === 'revert' ? 'The server keeps the value sent: revert its History change if it should go back.' : 'Not sent: schedule it again if it is still wanted.'}`,
    );
    return false;
  }
  if (account === undefined || !specOf(run.specs, item.sheet)) {
    run.mark(
      item,
      'ERROR',
      account === undefined
        ? `Not sent: "${item.account}" names no account (main account, or sub-account and its name).`
        : `Not sent: changes of ${item.sheet} cannot be scheduled in this version.`,
    );
    // A request out that cannot be read back so is given up, never left standing.
    landed(job, item);
    return false;
  }
  return true;
}

/** A request to send for an item, and what its rows said before they were marked. */
interface Pending {
  spec: AnySpec;
  item: Item;
  request: unknown;
  /** The record's content it carries, for its outbox entry. */
  content: string[][];
  /** Added to its rows' message once accepted (how a field the server does not list went). */
  note: string;
  was: Array<[ScheduledStatus, string]>;
}

/**
 * One round: its records read (one list per 50 of an account, together), each item decided,
 * then the requests in chunks (chunkSize), inside the time budget. A chunk's rows are marked
 * as out in the write that settles the chunk before, and it leaves only once that is sent.
 * Answers false when the time budget stopped it, what it did not send counted as left.
 */
function applyRound(
  job: Job,
  view: View,
  run: Run,
  round: readonly Item[],
): boolean {
  const pending = job.budget.batch(() =>
    run.specs.flatMap(spec => {
      const mine = round.filter(item => item.sheet === spec.schema.name);
      if (mine.length === 0) return [];
      const server = readServer(job, spec, mine, run.tally);
      return mine.flatMap(item =>
        decideItem(job, run, spec, item, server(item)),
      );
    }),
  );
  const left = (items: ReadonlyArray<{item: Item}>) => {
    for (const {item} of items) run.tally.left += item.entries.length;
  };
  if (!pending) {
    left(round.map(item => ({item})));
    return false;
  }
  for (let k = 0; k < pending.length;) {
    const chunk = pending.slice(k, k + chunkSize(job, pending.length - k));
    k += chunk.length;
    markOut(job, run, chunk);
    const leaving = settle(job, view, run, chunk);
    const sent = job.budget.batch(() => sendPending(job, run, leaving));
    if (!sent) {
      // Marked as out, never sent: its rows say again what they said, for the next run.
      for (const {item, was} of leaving) {
        item.entries.forEach((entry, n) => view.mark(entry, ...was[n]));
        landed(job, item);
      }
      left([...leaving, ...pending.slice(k)]);
      return false;
    }
  }
  settle(job, view, run, []);
  return true;
}

/**
 * How many of `count` requests the next chunk sends: as many fetchAll batches in a row as the
 * slowest batch so far says end before the deadline (every request of a chunk is marked as
 * out before the first leaves), at least one batch.
 */
function chunkSize(job: Job, count: number): number {
  const size = job.connected.mainClient.batchSize;
  let batches = Math.ceil(count / size);
  while (batches > 1 && !job.budget.fits(batches)) batches--;
  return batches * size;
}

/** An item's decision: marked, where nothing goes out; else its request, pending. */
function decideItem(
  job: Job,
  run: Run,
  spec: AnySpec,
  item: Item,
  server: Server,
): Pending[] {
  const decided = decide(job, run.grace, spec, item, server);
  if (!('request' in decided)) {
    // Read back and told (or given up after the grace): its outbox entry goes; else it
    // stays for the next run.
    if (item.unknown && decided.history) landed(job, item);
    // A status kept as it was (the record not read) is no outcome: counted apart.
    const kept = !item.unknown && decided.status === item.entries[0].status;
    if (kept) {
      run.tally.unread += item.entries.length;
      run.tally.unreadAccounts.add(item.account);
    }
    run.mark(item, decided.status, decided.message, !kept);
    // A lost request settled by reading back: History says what became of it (a run killed
    // while it was out recorded nothing of it).
    if (decided.history) logItem(run, item, decided.history, decided.message);
    if (decided.accepted) spec.accepted?.(job.book, [decided.accepted]);
    return [];
  }
  const {unsettable} = decided;
  const sent = unsettable
    ? item.entries.filter(e => !unsettable.fields.includes(e.field))
    : item.entries;
  if (unsettable) {
    const kept = item.entries.filter(e => !sent.includes(e));
    run.mark({...item, entries: kept}, 'ERROR', unsettable.message);
  }
  return [
    {
      spec,
      item: {...item, entries: sent},
      request: decided.request,
      content: decided.content,
      note: decided.note,
      was: sent.map(e => [e.status as ScheduledStatus, e.message]),
    },
  ];
}

/**
 * Posts a chunk's requests to the outbox and marks its rows as sent with no answer recorded:
 * what a run killed now leaves, saved (settle) before they leave.
 */
function markOut(job: Job, run: Run, chunk: readonly Pending[]): void {
  const now = job.platform.clock.now();
  const time = new Date(now).toISOString();
  job.outbox.post(chunk.map(p => outEntry(p.item, p.content, time)));
  const at = zoned(job.workbook, now);
  for (const {item} of chunk)
    run.mark(
      item,
      'ERROR',
      `${UNKNOWN[item.phase]} at ${at}, and no answer is recorded: the next run reads the record to tell what became of it.`,
      false,
    );
}

/**
 * Writes and sends every mark so far, with History and the state: the outcomes settled, and
 * `chunk` as out. Answers the chunk less the items a row of which was not written (deleted,
 * or typed CANCELLED, since the read), which are withdrawn: not sent.
 */
function settle(
  job: Job,
  view: View,
  run: Run,
  chunk: readonly Pending[],
): Pending[] {
  const missed = view.flush();
  run.logs.apply.flush(job.workbook);
  run.logs.revert.flush(job.workbook);
  job.saveState();
  return chunk.filter(p => {
    if (!p.item.entries.some(e => missed.has(e.index))) return true;
    withdraw(job, view, p, run.tally);
    return false;
  });
}

/**
 * An item whose rows were not all marked as out (deleted, or typed CANCELLED, while the run
 * read the server): nothing is sent, and its rows marked meanwhile say again what they said.
 */
function withdraw(
  job: Job,
  view: View,
  {item, was}: Pending,
  tally: Tally,
): void {
  item.entries.forEach((entry, k) => view.mark(entry, ...was[k]));
  landed(job, item);
  tally.withdrawn += item.entries.length;
}

/**
 * Sends the requests, each signed by its record's account; marks each row's outcome and adds
 * its History rows. Answers true (it ran).
 */
function sendPending(job: Job, run: Run, pending: readonly Pending[]): true {
  const at = zoned(job.workbook, job.platform.clock.now());
  for (const spec of run.specs) {
    const mine = pending.filter(p => p.spec === spec);
    if (mine.length === 0) continue;
    const outcomes = spec.send(
      mine.map(({item, request}) => ({
        client: job.connected.clientFor(accountOfLabel(item.account)!),
        body: request,
      })),
    );
    run.tally.requests += mine.length;
    const accepted: unknown[] = [];
    outcomes.forEach((outcome, k) => {
      const {item, request, note, was} = mine[k];
      // An answer tells what became of it; a lost one leaves its entry for the next run.
      if (outcome.ok || !(outcome.error instanceof OutcomeUnknownError))
        landed(job, item);
      const log = run.logs[item.phase];
      let history: HistoryOutcome;
      let message: string;
      if (outcome.ok && item.phase === 'revert') {
        // The row keeps the record of the send; History cites the change it puts back.
        const [{sentAs, change_id}] = item.entries;
        history = 'OK';
        message = `Put back at ${at}: reverts ${sentAs ? `History change ${sentAs}, ` : ''}scheduled change ${change_id}.${note}`;
        run.mark(
          item,
          'REVERTED',
          `${was[0][1]} Put back at ${at}: History change ${log.changeId}.${note}`,
        );
        accepted.push(request);
      } else if (outcome.ok) {
        history = 'OK';
        message = `Sent at ${at}: History change ${log.changeId}.${note}`;
        for (const entry of item.entries) entry.sentAs = log.changeId;
        const [{revertAt}] = item.entries;
        run.mark(
          item,
          'OK',
          Number.isNaN(revertAt)
            ? message
            : `${message} To be put back at ${zoned(job.workbook, revertAt)}.`,
        );
        accepted.push(request);
      } else if (outcome.error instanceof OutcomeUnknownError) {
        history = 'UNKNOWN';
        message = `${UNKNOWN[item.phase]} at ${at}, and its answer was lost (${outcome.error.message}): the next run reads the record to tell what became of it. History change ${log.changeId}.`;
        run.mark(item, 'ERROR', message);
      } else {
        history = 'ERROR';
        message = `Refused at ${at}: ${failureMessage(outcome.error)} History change ${log.changeId}.`;
        run.mark(item, 'ERROR', message);
      }
      logItem(run, item, history, message);
    });
    if (accepted.length > 0) spec.accepted?.(job.book, accepted);
  }
  return true;
}

/** What became of an item's request is known (or it never left): its outbox entry goes. */
function landed(job: Job, item: Item): void {
  job.outbox.settle(outKey({...item, change_id: item.entries[0].change_id}));
}

/** An item's History rows, one per field, in its phase's log. */
function logItem(
  run: Run,
  item: Item,
  outcome: HistoryOutcome,
  message: string,
): void {
  run.logs[item.phase].add(
    item.entries.map(e => ({
      account: e.account,
      sheet: e.sheet,
      record: e.record,
      field: e.field,
      before: item.phase === 'apply' ? e.before : e.after,
      after: item.phase === 'apply' ? e.after : e.before,
      outcome,
      message,
    })),
  );
}
