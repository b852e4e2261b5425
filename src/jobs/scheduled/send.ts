/**
 * Hands the due changes of a scheduled run to the push's own delivery (push/push-delivery.ts):
 * each round's records read together and decided (decide.ts), then each sheet's units of one
 * phase delivered as a push's are, under the job `scheduled push` or `scheduled revert`: the
 * same chunks inside the time budget, the same outbox entries (named by their change), the
 * same read-back of a lost answer in the same run, the same History. What stays here is the
 * scheduled run's own: which items go out (their time, their window), the marks of the
 * Scheduled rows at take-off, and the rows' statuses and words from each outcome (said.ts).
 */
import type {HistoryOutcome} from '../../sheets/history';
import {ScheduledStatus} from '../../sheets/scheduled';
import {ChangeLog} from '../change-log';
import {accountOfLabel} from '../connect';
import {Job} from '../kernel';
import {Delivery, jobDeps, type Told} from '../push/push-delivery';
import type {Delivered, Sending} from '../push/push-spec';
import {zoned} from './when';
import {
  Phase,
  JOB,
  UNKNOWN,
  Item,
  SIDES,
  outKey,
  Tally,
  graceMs,
  timeOf,
  roundsOf,
} from './due';
import {AnySpec, Server, SPECS, specOf, readServer, decide} from './decide';
import {lostUnit, sentOf} from './lost';
import {View} from './view';
import {Carried, Said, Saying, notKnown, saidOf, unreadLost} from './said';

/** What a run carries from round to round. */
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
    specs: SPECS,
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

/** The units of a round, each carried, for one sheet's delivery. */
type Units = Map<Sending<unknown>, Carried>;

/**
 * One round: the records of its new items read (one list per 50 of an account, together), each
 * decided, then each sheet's units of one phase delivered, the lost answers of earlier runs
 * among them (the delivery reads those back). Answers false when the time budget stopped it,
 * what it did not send counted as left.
 */
function applyRound(
  job: Job,
  view: View,
  run: Run,
  round: readonly Item[],
): boolean {
  const decided = job.budget.batch(() =>
    run.specs.map(spec => {
      const mine = round.filter(item => item.sheet === spec.schema.name);
      // A lost request is read back by the delivery, unless what it sent was not recorded.
      const read = mine.filter(
        item => !item.unknown || sentOf(job, item).length === 0,
      );
      const server =
        read.length > 0 ? readServer(job, spec, read, run.tally) : undefined;
      const units: Units = new Map();
      for (const item of mine) {
        for (const [unit, carried] of item.unknown
          ? lostOf(job, run, spec, item, server?.(item))
          : decideItem(job, run, spec, item, server!(item)))
          units.set(unit, carried);
      }
      return {spec, units};
    }),
  );
  if (!decided) {
    for (const item of round) run.tally.left += item.entries.length;
    return false;
  }
  // The earliest due first: a run the time budget stops leaves the latest for the next one.
  const deliveries = decided
    .flatMap(({spec, units}) =>
      (['revert', 'apply'] as const).map(phase => ({
        spec,
        phase,
        units: new Map([...units].filter(([, c]) => c.item.phase === phase)),
      })),
    )
    .filter(d => d.units.size > 0)
    .sort((a, b) => earliest(a.units) - earliest(b.units));
  let inTime = true;
  for (const {spec, phase, units} of deliveries) {
    if (inTime) inTime = deliver(job, view, run, spec, phase, units);
    else
      for (const {item} of units.values())
        run.tally.left += item.entries.length;
  }
  save(job, view, run);
  return inTime;
}

/** When the earliest of the units is due. */
function earliest(units: Units): number {
  return Math.min(...[...units.values()].map(c => timeOf(c.item)));
}

/**
 * Delivers one sheet's units of one phase through the push's Delivery; answers false where
 * the time budget stopped it.
 */
function deliver(
  job: Job,
  view: View,
  run: Run,
  spec: AnySpec,
  phase: Phase,
  units: Units,
): boolean {
  // A unit sent again or read back is a copy: its record tells which it is.
  const byRecord = new Map([...units].map(([u, c]) => [u.record, c]));
  const carried = (unit: Sending<unknown>) => byRecord.get(unit.record)!;
  const saying = sayingOf(job, run, spec, phase);
  const said = new Map<Told<unknown>, Said>();
  const words = (told: Told<unknown>) => {
    const known = said.get(told);
    if (known) return known;
    const fresh = saidOf(saying, told, carried(told.unit));
    said.set(told, fresh);
    return fresh;
  };
  let heard = 0;
  let inTime = true;
  // The rows say what the delivery told of them since the last save.
  const hear = () => {
    for (const told of delivery.told.slice(heard)) {
      const c = carried(told.unit);
      if (told.outcome.kind === 'not sent') {
        // Marked as out, never sent: its rows say again what they said, for the next run.
        if (c.out) c.item.entries.forEach((e, n) => view.mark(e, ...c.was[n]));
        run.tally.left += c.item.entries.length;
        inTime = false;
        continue;
      }
      const w = words(told);
      if (w.sentAs) for (const e of c.item.entries) e.sentAs = w.sentAs;
      run.mark(c.item, w.status, w.message);
      // Left not known after the grace: read no more.
      if (w.givenUp) landed(job, c.item);
    }
    heard = delivery.told.length;
  };
  const delivery = new Delivery(job.platform, spec, {
    ...jobDeps(job),
    totalRows: units.size,
    job: JOB[phase],
    progress: job.name,
    log: run.logs[phase],
    history: (delivered, told) => historyOf(delivered, words(told)),
    takeOff: chunk => {
      hear();
      const at = zoned(job.workbook, job.platform.clock.now());
      for (const unit of chunk) {
        const c = carried(unit);
        c.out = true;
        run.mark(
          c.item,
          'ERROR',
          `${UNKNOWN[phase]} at ${at}, and no answer is recorded: the next run reads the record to tell what became of it.`,
          false,
        );
      }
      // A row deleted or typed CANCELLED since the read: its change is withdrawn, not sent.
      const missed = view.flush();
      return chunk.filter(unit => {
        const c = carried(unit);
        if (!c.item.entries.some(e => missed.has(e.index))) return true;
        c.item.entries.forEach((e, n) => view.mark(e, ...c.was[n]));
        run.tally.withdrawn += c.item.entries.length;
        return false;
      });
    },
    settled: () => {
      hear();
      save(job, view, run);
    },
  });
  delivery.run([...units.keys()]);
  hear();
  run.tally.requests += delivery.requests;
  return inTime;
}

/** What the words of a sheet's units in one phase need of the run (said.ts). */
function sayingOf(job: Job, run: Run, spec: AnySpec, phase: Phase): Saying {
  return {job, grace: run.grace, log: run.logs[phase], schema: spec.schema};
}

/** An item decided: marked, where nothing goes out; else its unit, carried. */
function decideItem(
  job: Job,
  run: Run,
  spec: AnySpec,
  item: Item,
  server: Server,
): Array<[Sending<unknown>, Carried]> {
  const decided = decide(job, spec, item, server);
  if (!('request' in decided)) {
    // A status kept as it was (the record not read) is no outcome: counted apart.
    const kept = decided.status === item.entries[0].status;
    if (kept) {
      run.tally.unread += item.entries.length;
      run.tally.unreadAccounts.add(item.account);
    }
    run.mark(item, decided.status, decided.message, !kept);
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
    [
      {
        record: decided.record,
        request: decided.request,
        sends: '',
        once: true,
        fresh: true,
        change: item.entries[0].change_id,
      },
      {
        item: {...item, entries: sent},
        note: decided.note,
        was: sent.map(e => [e.status as ScheduledStatus, e.message]),
        out: false,
      },
    ],
  ];
}

/** An item whose request left in an earlier run with no answer recorded: read back first. */
function lostOf(
  job: Job,
  run: Run,
  spec: AnySpec,
  item: Item,
  server: Server | undefined,
): Array<[Sending<unknown>, Carried]> {
  const lost = lostUnit(job, spec, item, server);
  if ('unit' in lost) {
    return [[lost.unit, {item, note: '', was: [], out: false}]];
  }
  const said =
    'neither' in lost
      ? notKnown(item, lost.neither)
      : unreadLost(
          sayingOf(job, run, spec, item.phase),
          {item, out: false},
          {says: lost.unread, unlisted: lost.unlisted},
        );
  run.mark(item, said.status, said.message);
  if (said.history) run.logs[item.phase].add(historyRows(item, said.history));
  if ('neither' in lost || said.givenUp) landed(job, item);
  return [];
}

/**
 * The History rows of an item the delivery never saw (an earlier release's lost request, what
 * it sent not recorded, whose record reads back as neither side of the change or cannot be read
 * past the grace), one per field.
 */
function historyRows(
  item: Item,
  {outcome, message}: {outcome: HistoryOutcome; message: string},
) {
  const [from, to] = SIDES[item.phase];
  return item.entries.map(e => ({
    account: e.account,
    sheet: e.sheet,
    record: e.record,
    field: e.field,
    before: e[from],
    after: e[to],
    outcome,
    message,
  }));
}

/** A delivered record as History tells it: in the scheduled run's words, or not at all. */
function historyOf(delivered: Delivered, said: Said): Delivered | undefined {
  return said.history && {...delivered, ...said.history};
}

/** Writes and sends every mark so far, with History and the state. */
function save(job: Job, view: View, run: Run): void {
  view.flush();
  run.logs.apply.flush(job.workbook);
  run.logs.revert.flush(job.workbook);
  job.saveState();
}

/** What became of an item's request is known (or it never left): its outbox entry goes. */
function landed(job: Job, item: Item): void {
  job.outbox.settle(outKey({...item, change_id: item.entries[0].change_id}));
}
