/**
 * revertChange: puts the "before" values of one History change back into their sheets as
 * unpushed edits (EDITED, the message naming the change), for the user to preview and push
 * with the usual push. Nothing is sent here.
 *
 * History is read by change_id wherever its rows are (sheets/history.ts); each record's plan
 * is decided without the sheet (revert-plan.ts): put back only where a push could send the
 * whole record back, else CONFLICT or the reason on its rows, nothing else rewritten.
 * Offers created, materials uploaded and sub-accounts created cannot be undone through the
 * API: revert names them and changes nothing. Reverting twice changes nothing the second time.
 */
import {ConfigError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import {HistoryRow} from '../../sheets/schemas/history';
import {readChange, readRunsAfter, timeOf} from '../../sheets/history';
import type {SheetSchema} from '../../sheets/schema';
import {putBack, withStatus} from '../../sheets/put-back';
import type {SheetState} from '../../sheets/pulled';
import {SheetLayoutError, Table, openTable, sheetRow} from '../../sheets/table';
import {RowSaid, decodeRecords} from '../../sheets/records';
import type {SheetWriter} from '../../sheets/writer';
import {counted} from '../../text/wording';
import {accountOfCell, recordKey} from '../../sheets/accounts';
import {accountLabel, pulledByThisConnection} from '../connect';
import {Job, withJob} from '../kernel';
import {SERVER_JOB} from '../refresh/server-changes';
import {BUDGETS_PUSH} from '../push/push-budgets';
import {CAMPAIGNS_PUSH} from '../push/push-campaigns';
import {type RecordRules, openedFor} from '../push/push-spec';
import {trackingPush} from '../push/push-tracking';
import {LaterChange, RecordChange, RevertPlan, planRevert} from './revert-plan';
import type {JobSummary, RowProblem} from '../run';

/** A sheet whose changes a push sent, and so a push can send back, and its refresh. */
interface Revertible {
  schema: SheetSchema<never>;
  refreshTitle: string;
  /** The push's own rules: what revert puts back must pass them. */
  rules?: RecordRules;
}

// The specs name the refresh to run; the tracking push's setting and clock do not matter here.
const REVERTIBLE: readonly Revertible[] = [
  BUDGETS_PUSH,
  CAMPAIGNS_PUSH,
  trackingPush(''),
].map(spec => ({
  schema: spec.schema as SheetSchema<never>,
  refreshTitle: spec.refreshTitle,
  rules: spec.rules,
}));

/** Whether a push sent that sheet's changes, so that revert can put them back. */
export function isRevertible(sheet: string): boolean {
  return REVERTIBLE.some(r => r.schema.name === sheet);
}

/** Per sheet, per record: what the change did to it, in History order. */
function bySheet(rows: readonly HistoryRow[]): Map<string, RecordChange[]> {
  const sheets = new Map<string, Map<string, RecordChange>>();
  for (const row of rows) {
    const records = sheets.get(row.sheet) ?? new Map<string, RecordChange>();
    sheets.set(row.sheet, records);
    // Rows of an earlier release name the account the run acted as: its records' account.
    const account = accountOfCell(row.account) ?? '';
    const key = recordKey(account, row.record);
    const record = records.get(key) ?? {
      account,
      id: row.record,
      outcome: row.outcome,
      fields: [],
    };
    records.set(key, record);
    // A History row copied whole says nothing new.
    const same = record.fields.some(
      f =>
        f.field === row.field &&
        f.before === row.before &&
        f.after === row.after,
    );
    if (!same)
      record.fields.push({
        field: row.field,
        before: row.before,
        after: row.after,
      });
  }
  return new Map([...sheets].map(([sheet, m]) => [sheet, [...m.values()]]));
}

/** What a revert did with the records of a change, for its summary. */
interface RevertCounts {
  edited: number;
  conflict: number;
  unchanged: number;
  /** Rows that held a change the server did not take, back to the server's values. */
  withdrawn: number;
  /** Records a push could not send back (a tracking the API cannot remove): rows say why. */
  refused: number;
  problems: RowProblem[];
  notes: string[];
}

export function revertChange(platform: Platform, changeId: string): JobSummary {
  const id = String(changeId ?? '').trim();
  return withJob(platform, 'revertChange', {}, job => {
    const all = readChange(job.workbook, id);
    if (all.length === 0) {
      throw new ConfigError(
        `Change ${id || '(no id)'} is not in the History sheet: check the id (the sidebar lists the last runs), or it was moved to a History archive sheet. Nothing was changed.`,
      );
    }
    // What a refresh found changed on the server is no write of Offer Desk's to put back.
    const rows = all.filter(r => r.job !== SERVER_JOB);
    if (rows.length === 0) {
      throw new ConfigError(
        `Change ${id} records fields changed on the server outside Offer Desk, which a refresh found: Offer Desk did not write them, so there is nothing of its own to revert. Nothing was changed; to put a value back, type it into its row and push it.`,
      );
    }
    const tally: RevertCounts = {
      edited: 0,
      conflict: 0,
      unchanged: 0,
      withdrawn: 0,
      refused: 0,
      problems: [],
      notes: [],
    };
    const {account} = rows[0];
    const sheets = bySheet(rows);
    // Each record is its owner's, whoever acts: the summary names each account it put back.
    const accounts = new Map<string, number>();
    for (const records of sheets.values())
      for (const r of records)
        accounts.set(r.account, (accounts.get(r.account) ?? 0) + 1);
    for (const [sheet, records] of sheets) {
      const revertible = REVERTIBLE.find(r => r.schema.name === sheet);
      if (!revertible) {
        tally.notes.push(
          `${counted(records.length, 'record')} of ${sheet} cannot be reverted: the API cannot delete what was created or uploaded. They stay as they are.`,
        );
        continue;
      }
      revertSheet(
        {
          job,
          now: new Date(platform.clock.now()),
          account,
          changeId: id,
          tally,
          later: laterChanges(job, id, rows),
        },
        revertible,
        records,
      );
    }
    const summary = job.summary({
      sheet: rows[0].sheet,
      ok: 0,
      invalid: 0,
      error: 0,
      skipped: tally.unchanged,
      edited: tally.edited,
      conflict: tally.conflict,
      problems: tally.problems,
      accounts,
    });
    const whose = (summary.accounts ?? [])
      .map(line => `${line.account}: ${counted(line.records, 'record')}`)
      .join(', ');
    return {
      ...summary,
      account,
      changeId: id,
      message: revertMessage(tally) + (whose ? ` Records of ${whose}.` : ''),
    };
  });
}

/** "Revert of c1: 2 rows put back as EDITED: …; 1 row CONFLICT: …. Nothing was sent. …" */
function revertMessage(tally: RevertCounts): string {
  const parts = [
    tally.edited > 0
      ? `${counted(tally.edited, 'row')} put back as EDITED: preview and push to send ${tally.edited === 1 ? 'it' : 'them'}`
      : 'Nothing put back',
    tally.withdrawn > 0
      ? `${counted(tally.withdrawn, 'row')} back to the server's values, which never took the change: nothing to push for ${tally.withdrawn === 1 ? 'it' : 'them'}`
      : '',
    tally.conflict > 0
      ? `${counted(tally.conflict, 'row')} CONFLICT: see sync_message`
      : '',
    tally.refused > 0
      ? `${counted(tally.refused, 'record')} cannot be reverted: see sync_message`
      : '',
    tally.unchanged > 0
      ? `${counted(tally.unchanged, 'record')} needed nothing`
      : '',
  ].filter(p => p !== '');
  return [`${parts.join('; ')}. Nothing was sent.`, ...tally.notes].join(' ');
}

/** What every sheet of one revert shares. */
interface RevertRun {
  job: Job;
  now: Date;
  /** The account the change was made as (accountLabel). */
  account: string;
  changeId: string;
  tally: RevertCounts;
  /** A record's accepted changes of later runs, newest first (History read once, if asked). */
  later: (sheet: string, record: RecordChange) => LaterChange[];
}

/** The later runs' changes of a record, History's runs after this one read on first ask. */
function laterChanges(
  job: Job,
  changeId: string,
  rows: readonly HistoryRow[],
): RevertRun['later'] {
  let runs: HistoryRow[][] | undefined;
  const last = Math.max(...rows.map(r => r.time.getTime()));
  return (sheet, {account, id}) => {
    runs ??= Number.isNaN(last)
      ? []
      : readRunsAfter(job.workbook, changeId, new Date(last));
    return runs.flatMap(run => {
      const mine = run.filter(
        r =>
          r.sheet === sheet &&
          r.record === id &&
          (accountOfCell(r.account) ?? '') === account &&
          r.outcome === 'OK',
      );
      return mine.length === 0
        ? []
        : [
            {
              changeId: mine[0].change_id,
              time: timeOf(job.workbook, mine[0].time),
              fields: mine.map(({field, before, after}) => ({
                field,
                before,
                after,
              })),
            },
          ];
    });
  };
}

function revertSheet(
  run: RevertRun,
  revertible: Revertible,
  records: readonly RecordChange[],
): void {
  const sheet = openForRevert(run, revertible);
  if (!sheet) return;
  const {table, state} = sheet;
  const {job, now, changeId, tally} = run;
  // Decoded as a push decodes them: the same records, the same reasons to refuse one.
  const opened = openedFor(revertible.rules, {
    workbook: job.workbook,
    book: job.book,
    records: decodeRecords(table, state, job.workbook, {
      label: accountLabel,
      refreshTitle: revertible.refreshTitle,
      out: job.outbox.writesOf(table.schema.name),
    }),
  });
  const decoded = new Map(opened.records.map(r => [r.key, r]));
  const {writer} = job.track(table, () => now.getTime());
  const layout: Layout = {
    removed: new Set(),
    added: new Map(),
    conflicts: new Map(),
  };
  const counts: Array<[number[], Counted]> = [];
  for (const record of records) {
    const found = decoded.get(recordKey(record.account, record.id));
    const rows = found?.rows;
    const plan = planRevert({
      schema: table.schema,
      rules: revertible.rules,
      opened,
      changeId,
      change: record,
      base: found?.base,
      out: found?.out,
      content: found?.base ? found.content : undefined,
      refusedWhole: found?.kind === 'duplicate' ? found.reason : undefined,
      said: saidBy(found?.said ?? []),
      later: () => run.later(table.schema.name, record),
    });
    if (plan.kind === 'unchanged') tally.unchanged++;
    else if (plan.kind === 'note') tally.notes.push(plan.message);
    else {
      const counted = decide(writer, rows!, plan, layout, run);
      if (counted) counts.push(counted);
    }
  }
  const {gone, kept} = writer.flush();
  tallyWritten(run, table, layout, counts, new Set(gone));
  if (kept.length > 0) {
    run.tally.notes.push(
      `${counted(kept.length, 'row')} of ${table.schema.name} kept what someone typed into ${kept.length === 1 ? 'it' : 'them'} while the revert ran, instead of the value it put back: check ${kept.length === 1 ? 'it' : 'them'}, then revert ${run.changeId} again if you still want it.`,
    );
  }
}

/** The sheet and its pulled state, if revert may act on it; else null, the reason noted. */
function openForRevert(
  run: RevertRun,
  {schema, refreshTitle}: Revertible,
): {table: Table<never>; state: SheetState} | null {
  const {job, changeId, tally} = run;
  const problem = (message: string) => {
    tally.notes.push(message);
    return null;
  };
  let table: Table<never> | null;
  try {
    table = openTable(job.workbook, schema, {create: false});
    const state = job.book.get(schema.name);
    if (!table || !state)
      return problem(
        `${schema.name} is not refreshed in this spreadsheet: refresh it, then revert ${changeId} again. Nothing was changed.`,
      );
    pulledByThisConnection(job.book, schema.name, refreshTitle, job.connected);
    return {table, state};
  } catch (e) {
    if (!(e instanceof SheetLayoutError) && !(e instanceof ConfigError))
      throw e;
    return problem(`${e.message} Change ${changeId} was not put back there.`);
  }
}

/** Where the rows will be once written, for the rows the summary names. */
interface Layout {
  removed: Set<number>;
  /** Rows inserted below a handle's row. */
  added: Map<number, number>;
  /** CONFLICT rows and their messages. */
  conflicts: Map<number, string>;
}

type Counted = 'edited' | 'withdrawn' | 'refused';

/**
 * Gives the writer a record's plan; answers the rows it counts as once written (a row
 * inserted counts with the row it is inserted below), none for CONFLICT (counted by row).
 */
function decide(
  writer: SheetWriter<never>,
  rows: number[],
  plan: Exclude<RevertPlan, {kind: 'unchanged' | 'note'}>,
  layout: Layout,
  run: RevertRun,
): [number[], Counted] | null {
  if (plan.kind === 'mark') {
    for (const row of rows) {
      writer.status(row, plan.status, plan.message);
      if (plan.status === 'CONFLICT') layout.conflicts.set(row, plan.message);
    }
    return plan.status === 'CONFLICT' ? null : [rows.slice(0, 1), 'refused'];
  }
  const placed = putBack(writer, rows, plan.content, run.job.workbook);
  for (const row of placed.kept) writer.status(row, plan.status, plan.message);
  for (const row of placed.removed) {
    writer.remove(row);
    layout.removed.add(row);
  }
  const last = rows[rows.length - 1];
  writer.insertAfter(
    last,
    placed.added.map(row => withStatus(writer.table, row, plan, run.now)),
  );
  layout.added.set(last, placed.added.length);
  return [
    [...placed.kept, ...placed.added.map(() => last)],
    plan.withdrawn ? 'withdrawn' : 'edited',
  ];
}

/** Counts what was written: a row that moved away meanwhile is said apart. */
function tallyWritten(
  run: RevertRun,
  table: Table<never>,
  layout: Layout,
  counts: ReadonlyArray<[number[], Counted]>,
  gone: ReadonlySet<number>,
): void {
  const {tally, changeId} = run;
  for (const [rows, kind] of counts)
    tally[kind] += rows.filter(row => !gone.has(row)).length;
  let at = 0;
  table.values.forEach((_, row) => {
    if (layout.removed.has(row)) return;
    const message = layout.conflicts.get(row);
    if (message !== undefined && !gone.has(row)) {
      tally.conflict++;
      tally.problems.push({
        sheet: table.schema.name,
        row: sheetRow(at),
        status: 'CONFLICT',
        message,
      });
    }
    at += 1 + (layout.added.get(row) ?? 0);
  });
  if (gone.size > 0)
    tally.notes.push(
      `${counted(gone.size, 'row')} of ${table.schema.name} moved away or ${gone.size === 1 ? 'was' : 'were'} deleted while the revert ran: ${gone.size === 1 ? 'its' : 'their'} revert was not written. Revert ${changeId} again.`,
    );
}

/** What a record's rows say (SheetRecord.said): the first ERROR or CONFLICT, else the first. */
function saidBy(said: readonly RowSaid[]): RowSaid {
  return (
    said.find(s => s.status === 'ERROR' || s.status === 'CONFLICT') ??
    said[0] ?? {status: '', message: ''}
  );
}
