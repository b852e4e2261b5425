/**
 * Create sub-accounts (API 4.10): every Sub-accounts row with a sub_adv_user_name and a
 * password and no access_key, created with the main account's keys (part 5, rule 3) whoever
 * is acted as. The row gets the access_key and the credit fields the API answers; the api key
 * goes to the user's own properties (where acting as the sub-account finds it), never into a
 * cell.
 *
 * Every collaborator of the spreadsheet can read a password cell, so the job clears every
 * password it reads, whatever the row's outcome (created, refused here or by the API, outcome
 * unknown, not reached in time), and the row's message says so and what to type again. A
 * create whose answer was lost is looked up by name before anything is sent again; so is one
 * an earlier run sent and never recorded the answer of (Apps Script stopped it while the
 * request was out): each create is posted to the outbox (state/outbox.ts) and saved, its row
 * saying `Create sent as ...` and its password cleared, before its batch goes out.
 *
 * A preview ({dryRun: true}) checks the same rows and sends nothing, so it clears no password:
 * each row says the password stays in its cell until the real run, which clears it.
 */
import type {RunOptions} from '../kernel';
import type {ApiClient} from '../../api/client';
import {ConfigError, OutcomeUnknownError} from '../../api/errors';
import {
  createSubAccounts as sendCreates,
  getSubAccount,
} from '../../api/operations';
import type {SubAccount} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {
  NAME_MISSING,
  answeredOnly,
  takenInSheet,
} from '../../rules/sub-account';
import {isEmptyCell} from '../../sheets/cell';
import type {HistoryOutcome} from '../../sheets/history';
import {SYNC_MESSAGE, SYNC_STATUS} from '../../sheets/schema';
import {SUB_ACCOUNTS, SubAccountRow} from '../../sheets/schemas/sub-accounts';
import {Table, cellOf, sheetRow} from '../../sheets/table';
import {Job, withJob} from '../kernel';
import type {RowWrites} from '../row-writes';
import type {JobSummary} from '../run';
import type {SettingsStore} from '../settings-store';
import type {OutboxEntry} from '../../state/outbox';

const JOB = 'createSubAccounts';

/** How a row's sync_message starts while the answer to its create is not recorded. */
const createSentAs = (name: string) =>
  `Create sent as sub_adv_user_name ${name}`;

/**
 * The name the release before's marker names (a user name has no spaces, 4.10): it kept a
 * create whose answer it never recorded in the row alone, read into the outbox once.
 */
const SENT_AS = /^Create sent as sub_adv_user_name (\S+) at /;

/** The release before's markers of the sheet, as outbox entries. */
function earlierCreates<S>(
  table: Table<S>,
): Array<OutboxEntry<'sub-account create'>> {
  return table.values.flatMap((_, index) => {
    if (String(cellOf(table, index, SYNC_STATUS)) !== 'ERROR') return [];
    const name = SENT_AS.exec(String(cellOf(table, index, SYNC_MESSAGE)))?.[1];
    if (name === undefined) return [];
    return [
      {
        kind: 'sub-account create' as const,
        job: JOB,
        account: '',
        record: name,
        request: {row: sheetRow(index)},
        time: '',
      },
    ];
  });
}

/** The columns a create fills from the API's answer (4.10), never sent. */
const ANSWERED = ['is_unlimited_credit', 'credit'];

/**
 * Where the password came from, for the message of a row not created: what became of the
 * password, and how to send it again.
 */
interface PasswordSource {
  /** What became of it. */
  kept: string;
  /** After a refusal. */
  fix: string;
  /** Sending it again as it was. */
  again: string;
  /** What became of it once the sub-account exists. */
  created: string;
  /** A preview: the password stays in its cell, since nothing was sent. */
  keptInCell?: true;
}

const TYPED_IN_SHEET: PasswordSource = {
  kept: 'The password was cleared so that collaborators do not see it',
  fix: 'fix the row, type the password again and run Create sub-accounts',
  again: 'type the password again and run Create sub-accounts',
  created: 'the password cell was cleared',
};

const PREVIEWED: PasswordSource = {
  kept: 'The password is kept in its cell until the real run, which clears it whatever the outcome',
  fix: 'fix the row, then run Create sub-accounts',
  again: 'run Create sub-accounts',
  created: 'the password cell was cleared',
  keptInCell: true,
};

const TYPED_IN_SIDEBAR: PasswordSource = {
  kept: 'The password typed in the sidebar went to the API only and is kept nowhere',
  fix: 'correct the name or password and create it again in the sidebar',
  again: 'create it again in the sidebar',
  created:
    'the password typed in the sidebar went to the API only and is kept nowhere',
};

interface Pending {
  index: number;
  name: string;
  /** Empty for a row marked sent whose password an earlier run cleared. */
  password: string;
  /** The name an earlier run sent its create under, its answer never recorded. */
  sentAs?: string;
}

class SubAccountRun {
  private requests = 0;
  private remaining = 0;

  private readonly main: ApiClient;
  private readonly store: SettingsStore;
  readonly writes: RowWrites<SubAccountRow>;

  /** A run as the main account (sub-accounts are made with its keys), the sheet open. */
  constructor(
    private readonly job: Job,
    private readonly source: PasswordSource,
  ) {
    this.main = job.connected.mainClient;
    this.store = job.connected.store;
    this.writes = job.rows(SUB_ACCOUNTS);
    job.outbox.upgrade('sub-account create', () =>
      earlierCreates(this.writes.table),
    );
  }

  /**
   * The name an earlier run sent the row's create under, whose outcome is unknown (still in
   * the outbox): the row's own name, else one no row has any more, sent from the row's place
   * (the row renamed since; that send cleared its password).
   */
  sentAs(index: number): string | undefined {
    const {table} = this.writes;
    const text = (i: number, h: string) => String(cellOf(table, i, h)).trim();
    if (text(index, 'access_key')) return undefined;
    const out = this.job.outbox.entries('sub-account create');
    const name = text(index, 'sub_adv_user_name');
    if (out.some(e => e.record === name)) return name;
    if (text(index, 'password')) return undefined;
    const names = new Set(
      table.values.map((_, i) => text(i, 'sub_adv_user_name')),
    );
    return out.find(
      e => e.request.row === sheetRow(index) && !names.has(e.record),
    )?.record;
  }

  /** What became of a create is known: its outbox entry goes. */
  private settle(name: string): void {
    this.job.outbox.settle({
      kind: 'sub-account create',
      account: '',
      record: name,
    });
  }

  private get budget() {
    return this.job.budget;
  }

  private get log() {
    return this.job.log;
  }

  /** The summary; the kernel writes the rows and the History. */
  finish(wouldSend?: unknown[]): JobSummary {
    const none =
      this.writes.count('OK') +
        this.writes.count('INVALID') +
        this.writes.count('ERROR') +
        this.remaining ===
      0
        ? `Nothing to create (${this.job.account}): write a sub_adv_user_name and a password in a new Sub-accounts row.`
        : undefined;
    return this.job.summary({
      ...this.writes.tally(),
      skipped: 0,
      remaining: this.remaining,
      requests: this.requests,
      edited: this.writes.count('EDITED'),
      wouldSend,
      message: wouldSend ? undefined : none,
    });
  }

  /**
   * A create's History rows: the name, and that a password was set (never the password).
   * A refusal (ERROR) created nothing; UNKNOWN: nobody could tell whether it exists.
   */
  private logCreate(p: Pending, outcome: HistoryOutcome, message: string) {
    this.log.add(
      [
        ['sub-account created', p.name],
        ['password', '(set)'],
      ].map(([field, after]) => ({
        sheet: SUB_ACCOUNTS.name,
        record: p.name,
        field,
        before: '',
        after,
        outcome,
        message,
      })),
    );
  }

  /** Rows to create, those refused before sending marked INVALID. */
  pending(): Pending[] {
    const table = this.writes.table;
    const text = (i: number, h: string) => String(cellOf(table, i, h)).trim();
    const rowsByName = new Map<string, number[]>();
    table.values.forEach((_, i) => {
      const name = text(i, 'sub_adv_user_name');
      if (name)
        rowsByName.set(name, [...(rowsByName.get(name) ?? []), sheetRow(i)]);
    });
    const pending: Pending[] = [];
    table.values.forEach((_, i) => {
      const sent = this.sentAs(i);
      if (!sent && !SUB_ACCOUNTS.awaitsCreation!(h => cellOf(table, i, h))) {
        if (!isEmptyCell(cellOf(table, i, 'password'))) this.existing(i);
        return;
      }
      const name = text(i, 'sub_adv_user_name');
      const others = (rowsByName.get(name) ?? []).filter(
        r => r !== sheetRow(i),
      );
      const answered = ANSWERED.flatMap(h =>
        isEmptyCell(cellOf(table, i, h))
          ? []
          : [[h, cellOf(table, i, h)] as [string, unknown]],
      );
      const refused = !name
        ? NAME_MISSING
        : others.length > 0
          ? takenInSheet(name, others)
          : answered.length > 0
            ? answeredOnly(answered)
            : undefined;
      if (refused) {
        this.cleared(
          i,
          'INVALID',
          `${refused}. Nothing was sent.`,
          this.source.fix,
        );
      } else {
        pending.push({
          index: i,
          name,
          password: String(cellOf(table, i, 'password')),
          sentAs: sent,
        });
      }
    });
    return pending;
  }

  create(all: Pending[]): void {
    const pending = all.filter(p => !p.sentAs || this.absentBefore(p));
    const size = this.main.batchSize;
    for (let start = 0; start < pending.length; start += size) {
      if (!this.budget.canStart()) {
        for (const p of pending.slice(start)) {
          this.remaining++;
          this.cleared(
            p.index,
            'EDITED',
            'Not sent yet: the time ran out.',
            `${this.source.again} to continue`,
          );
        }
        return;
      }
      const chunk = pending.slice(start, start + size);
      const sentAt = new Date(this.job.platform.clock.now()).toISOString();
      for (const p of chunk) {
        this.cleared(
          p.index,
          'ERROR',
          `${createSentAs(p.name)} at ${sentAt}, but its answer was never recorded.`,
          'run Create sub-accounts again; it looks the sub-account up by name before sending anything',
        );
      }
      this.job.outbox.post(
        chunk.map(p => ({
          kind: 'sub-account create' as const,
          job: this.job.name,
          account: '',
          record: p.name,
          request: {row: sheetRow(p.index)},
          time: sentAt,
        })),
      );
      this.job.save();
      const outcomes = sendCreates(
        this.main,
        chunk.map(p => ({sub_adv_user_name: p.name, password: p.password})),
      );
      this.requests += chunk.length;
      chunk.forEach((p, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) {
          this.created(p, outcome.data, 'Created');
        } else if (outcome.error instanceof OutcomeUnknownError) {
          this.lookUp(p, outcome.error);
        } else {
          this.settle(p.name);
          const refused = `${outcome.error.message}. Nothing was created.`;
          this.logCreate(p, 'ERROR', refused);
          this.cleared(p.index, 'ERROR', refused, this.source.fix);
        }
      });
    }
  }

  /**
   * A row an earlier run sent the create of, its answer never recorded: looked up by the name
   * sent. Answers whether to send its create now (not found, and a password at hand).
   */
  private absentBefore(p: Pending): boolean {
    const name = p.sentAs!;
    const why = `an earlier run sent the create of sub-account ${name} and never recorded its answer`;
    const found = this.find({...p, name}, why);
    if (found === 'failed') return false;
    if (found) {
      // The row is that sub-account's now: a name typed over it since would pair another
      // name with its access_key.
      const renamed =
        name === p.name
          ? ''
          : `; this row said ${p.name} since: write it in a new row to create that one too`;
      if (renamed) this.writes.set(p.index, 'sub_adv_user_name', name);
      this.created(
        {...p, name},
        found,
        `Created by an earlier run (found by name: ${why}${renamed})`,
      );
      return false;
    }
    // Not there: it made nothing, and the row sends its own create, if anything.
    this.settle(name);
    if (p.password) return true;
    const absent = `${why}; no sub-account ${name} exists, so it was not created.`;
    this.logCreate({...p, name}, 'ERROR', absent);
    this.cleared(p.index, 'ERROR', absent, this.source.again);
    return false;
  }

  /** The create's answer was lost: the sub-account exists or it does not. */
  private lookUp(p: Pending, error: OutcomeUnknownError): void {
    const found = this.find(p, error.cause.message);
    if (found === 'failed') return;
    if (found) {
      this.created(
        p,
        found,
        'Created (found by name: the answer to its create was lost or carried no keys)',
      );
    } else {
      this.settle(p.name);
      const absent = `${error.cause.message}; no sub-account ${p.name} exists, so it was not created.`;
      this.logCreate(p, 'ERROR', absent);
      this.cleared(p.index, 'ERROR', absent, this.source.again);
    }
  }

  /**
   * The sub-account of that name, or none; 'failed' when the look-up failed, the row then
   * saying that nobody knows whether it exists (`why`: why it was looked up).
   */
  private find(p: Pending, why: string): SubAccount | undefined | 'failed' {
    try {
      const found = getSubAccount(this.main, p.name);
      this.requests++;
      return found;
    } catch (e) {
      const unknown = `${why}, and looking the sub-account up failed too (${(e as Error).message}): it may or may not exist.`;
      this.logCreate(p, 'UNKNOWN', unknown);
      this.cleared(
        p.index,
        'ERROR',
        unknown,
        `run Refresh sub-accounts, which looks the name up; if it finds no access_key, ${this.source.again}`,
      );
      return 'failed';
    }
  }

  /**
   * Marks the rows a run would create EDITED, sending nothing; answers the requests it would
   * send, the password never among them.
   */
  preview(
    pending: Pending[],
  ): Array<{sub_adv_user_name: string; password: string}> {
    for (const p of pending) {
      // A row whose create is still out says so: the real run looks its name up first.
      if (p.sentAs) continue;
      this.writes.status(
        p.index,
        'EDITED',
        `Preview: a run creates sub-account ${p.name} with the password of this row. ${this.source.kept}.`,
      );
    }
    return pending.map(p => ({
      sub_adv_user_name: p.sentAs ?? p.name,
      password: p.sentAs
        ? `(none sent unless looking ${p.sentAs} up by name finds no sub-account: an earlier run sent its create and never recorded the answer)`
        : `(the password cell of Sub-accounts row ${sheetRow(p.index)})`,
    }));
  }

  /**
   * A password typed on the row of a sub-account that exists (its access_key filled): the API
   * cannot change it, and left in the cell every collaborator would read it.
   */
  private existing(index: number): void {
    const name = String(
      cellOf(this.writes.table, index, 'sub_adv_user_name'),
    ).trim();
    this.cleared(
      index,
      'INVALID',
      `password: ${name ? `sub-account ${name}` : 'the sub-account of this row'} exists already (its access_key is filled), and the API cannot change a password, so nothing was sent.`,
      'to create another sub-account, write its name and a password in a new row',
    );
  }

  /** A row not created: its status, and its password gone from the sheet (not in a preview). */
  private cleared(
    index: number,
    status: 'INVALID' | 'ERROR' | 'EDITED',
    what: string,
    next: string,
  ): void {
    if (!this.source.keptInCell) this.writes.set(index, 'password', '');
    this.writes.status(index, status, `${what} ${this.source.kept}: ${next}.`);
  }

  private created(p: Pending, account: SubAccount, how: string): void {
    this.settle(p.name);
    this.store.put(p.name, {
      accessKey: account.access_key,
      apiKey: account.api_key,
    });
    this.writes.set(p.index, 'access_key', account.access_key);
    this.writes.set(p.index, 'password', '');
    if (account.is_unlimited_credit !== undefined) {
      this.writes.set(
        p.index,
        'is_unlimited_credit',
        String(account.is_unlimited_credit),
      );
    }
    if (
      typeof account.credit === 'number' ||
      typeof account.credit === 'string'
    ) {
      this.writes.set(p.index, 'credit', account.credit);
    }
    const message = `${how}: sub-account ${p.name}. Its api key is kept in your user properties, never in the sheet; ${this.source.created}.`;
    this.writes.status(p.index, 'OK', message);
    this.logCreate(p, 'OK', message);
  }
}

/**
 * Creates one sub-account from the sidebar, its password typed in a password field: it never
 * reaches a cell, so no collaborator can read it. The row of that name (one waiting for
 * creation, its password cell cleared too) or else a new row gets the outcome, as Create
 * sub-accounts would write it.
 */
export function createSubAccount(
  platform: Platform,
  name: unknown,
  password: unknown,
): JobSummary {
  const account = String(name ?? '').trim();
  const secret = String(password ?? '');
  if (!account) {
    throw new ConfigError(
      'Write the user name of the sub-account to create. Nothing was sent.',
    );
  }
  if (!secret) {
    throw new ConfigError(
      `Type the password of sub-account ${account}. Nothing was sent.`,
    );
  }
  return withJob(platform, 'createSubAccount', {asMain: true}, job => {
    const run = new SubAccountRun(job, TYPED_IN_SIDEBAR);
    const {writes} = run;
    const {table} = writes;
    const text = (i: number, h: string) => String(cellOf(table, i, h)).trim();
    const existing = table.values.findIndex(
      (_, i) => text(i, 'sub_adv_user_name') === account,
    );
    if (existing >= 0 && text(existing, 'access_key')) {
      throw new ConfigError(
        `Sub-account ${account} already exists (Sub-accounts row ${sheetRow(existing)} has its access_key). Nothing was sent.`,
      );
    }
    const index = existing >= 0 ? existing : writes.append();
    writes.set(index, 'sub_adv_user_name', account);
    writes.set(index, 'password', '');
    run.create([
      {
        index,
        name: account,
        password: secret,
        sentAs: existing >= 0 ? run.sentAs(existing) : undefined,
      },
    ]);
    return run.finish();
  });
}

export function createSubAccounts(
  platform: Platform,
  options: RunOptions = {},
): JobSummary {
  return withJob(platform, JOB, {...options, asMain: true}, job => {
    const run = new SubAccountRun(job, job.dryRun ? PREVIEWED : TYPED_IN_SHEET);
    const pending = run.pending();
    if (job.dryRun) return run.finish(run.preview(pending));
    run.create(pending);
    return run.finish();
  });
}
