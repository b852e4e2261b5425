/**
 * The alerts inside a refresh of offers (issue 21): what was pulled is compared with the last
 * pull (alerts.ts); the new alerts are appended to the Alerts sheet and named in the summary; a
 * scheduled refresh emails them (alertsEmail). The open conditions live in the state book,
 * beside the pulls they compare.
 *
 * An alert is a promise (issue 26): decided from what the server answered before any sheet is
 * written, it is recorded in the state book with the Offers state it compares against (the
 * same queued write), then stays there until the Alerts sheet has it (`unwritten`) and until a
 * summary a person reads or, for a scheduled run, an email carries it (`untold`). A run that
 * fails after the Offers state, at Budgets, the Alerts sheet or Creatives, leaves them to the
 * next refresh, which writes and tells them, never twice.
 */
import type {Platform, Workbook} from '../../platform/ports';
import {appendAlerts, unseenAlerts} from '../../sheets/alerts-sheet';
import type {SheetState} from '../../sheets/pulled';
import type {StateBook} from '../../state/book';
import {SheetLayoutError} from '../../sheets/table';
import {excerpt} from '../../rules/values';
import {counted} from '../../text/wording';
import {
  ALERTS_MEMO,
  Alert,
  OpenConditions,
  Watched,
  WatchInput,
  alertLine,
  watch,
} from './alerts';
import {recordKey} from '../../sheets/accounts';
import {accountLabel} from '../connect';
import type {JobSummary} from '../run';
import {SettingsStore} from '../settings-store';
import {TRACKING_SET_MEMO} from '../../state/server-click-memory';
import {SERVER_JOB} from './server-changes';

/** Alerts named in a summary's message; the Alerts sheet has them all. */
const IN_MESSAGE = 5;
/** Alerts listed in one email. */
const IN_EMAIL = 50;
/** Alerts kept for a later refresh (to write, or to tell): a bound, not a goal. */
const WAITING = 1000;

/** An alert waiting in the memo, with the account (as labelled) whose refresh found it. */
type Waiting = Alert & {account?: string};

interface Memo {
  /**
   * Until the state's version 3, the one account whose pulls the conditions followed, by
   * offer id; since, absent: conditions are by record key (accounts.ts), every account's.
   */
  account?: string;
  open: OpenConditions;
  /** Alerts the Alerts sheet has not taken yet: the next refresh writes them. */
  unwritten?: Waiting[];
  /** Alerts no summary nor (scheduled) email has carried yet: the next refresh tells them. */
  untold?: Waiting[];
}

/** The open conditions by record key, from a memo of any version. */
function openByKey(memo: Memo): OpenConditions {
  const {account} = memo;
  if (account === undefined) return memo.open;
  return Object.fromEntries(
    Object.entries(memo.open).map(([k, condition]) => {
      const at = k.lastIndexOf(' ');
      const key = recordKey(account, k.slice(0, at));
      return [`${key}${k.slice(at)}`, condition];
    }),
  );
}

/** What became of a scheduled run's alert email. */
export interface AlertMail {
  /** For the sidebar's last-run line. */
  text: string;
  /** Nothing more to email: it was sent, or the user wants none (0 a day). */
  done: boolean;
}

/** What one refresh of offers found and told. */
export class OfferWatch {
  /** The memo this refresh decided; undefined until it checked a pull of offers. */
  private memo: Memo | undefined;
  private tracked: Record<string, number> = {};
  private problem = '';

  constructor(private readonly platform: Platform) {}

  /**
   * Compares the offers just pulled (`current`: offers-refresher.ts keptOffer) with `previous` (the Offers
   * state before this refresh): decides the new alerts and what is open, recording nothing yet
   * (commit does, with the Offers state).
   */
  check(
    where: {state: StateBook; now: Date},
    previous: SheetState | undefined,
    current: WatchInput['current'],
  ): void {
    const {state} = where;
    const memo = state.memo<Memo>(ALERTS_MEMO);
    const before: Record<string, Watched> | undefined = previous
      ? Object.fromEntries(
          Object.entries(previous.records).map(([key, r]) => [
            key,
            r.facts ?? {},
          ]),
        )
      : undefined;
    const result = watch({
      previous: before,
      current,
      open: memo ? openByKey(memo) : {},
      tracked: state.memo<Record<string, number>>(TRACKING_SET_MEMO) ?? {},
      now: where.now.getTime(),
      hours: new SettingsStore(this.platform.userProperties).alertSettings()
        .hours,
    });
    // Alerts waiting from before keep the account that found them (an earlier release's
    // memo names it once, for all).
    const label = (a: Waiting) => ({
      ...a,
      account: a.account ?? accountLabel(memo!.account ?? ''),
    });
    const found = result.alerts;
    this.memo = {
      open: result.open,
      unwritten: [...(memo?.unwritten ?? []).map(label), ...found].slice(
        -WAITING,
      ),
      untold: [...(memo?.untold ?? []).map(label), ...found].slice(-WAITING),
    };
    this.tracked = result.tracked;
  }

  /**
   * Records what `check` decided in the state book, queued right behind the Offers state it
   * compares against: one reaches the document with the other, or neither does.
   */
  commit(state: StateBook): void {
    if (!this.memo) return;
    state.setMemo(ALERTS_MEMO, this.memo);
    state.setMemo(TRACKING_SET_MEMO, this.tracked);
    state.save();
  }

  /**
   * Appends the alerts the Alerts sheet has not taken yet (this refresh's and any left by an
   * earlier one), each under the account that found it. A sheet that cannot take them (the
   * user's own sheet named Alerts) does not fail the refresh: the summary says so, and they
   * wait in the memo.
   */
  write(where: {workbook: Workbook; state: StateBook; now: Date}): void {
    const memo = this.memo;
    if (!memo?.unwritten?.length) return;
    const waiting = memo.unwritten;
    let written = 0;
    try {
      appendAlerts(
        where.workbook,
        where.now,
        waiting.map(a => ({...a, account: a.account ?? ''})),
      );
      written = waiting.length;
    } catch (e) {
      // The add-on's own layout message says what to do, in full; another error's is excerpted.
      this.problem =
        e instanceof SheetLayoutError
          ? e.message
          : excerpt(e instanceof Error ? e.message : String(e), false);
    }
    memo.unwritten = waiting.slice(written);
    // Queued behind the rows appended: a run stopped later writes them once, not again.
    this.commit(where.state);
  }

  /**
   * The summary with the alerts not told yet named (all of them in `alerts`), and, for a
   * scheduled run (`mail`), emailed. They are told once carried: by this summary, which a
   * person reads, or by the email a scheduled run sends; an email not sent (the day's number
   * reached, no quota) leaves them for the next scheduled run. The memo is saved with the job.
   * `seen`: fields the run found changed on the server (History has them): a scheduled run
   * emails their count, alerts or not; an email not sent leaves them to History alone.
   */
  summarize(
    summary: JobSummary,
    state: StateBook,
    mail?: (lines: string[], problem: string) => AlertMail | undefined,
    seen = 0,
  ): JobSummary {
    const memo = this.memo;
    if (!memo) return summary;
    const lines = (memo.untold ?? []).map(alertLine);
    const problem = this.problem
      ? `The Alerts sheet could not be written (${this.problem}): the next refresh of offers writes its alerts.`
      : '';
    const email =
      lines.length > 0 || seen > 0 ? mail?.(lines, problem) : undefined;
    if (!mail || email?.done) memo.untold = [];
    state.setMemo(ALERTS_MEMO, memo);
    const named = lines.slice(0, IN_MESSAGE).join('; ');
    const more =
      lines.length > IN_MESSAGE
        ? `; ${lines.length - IN_MESSAGE} more in the Alerts sheet`
        : '';
    const told =
      lines.length > 0
        ? ` ${counted(lines.length, 'new alert')}: ${named}${more}.`
        : '';
    return {
      ...summary,
      ...(lines.length > 0 ? {alerts: lines} : {}),
      ...(email ? {alertsEmail: email.text} : {}),
      ...(memo.unwritten?.length
        ? {unwrittenAlerts: memo.unwritten.length}
        : {}),
      message: `${summary.message}${told}${problem ? ` ${problem}` : ''}`,
    };
  }
}

/**
 * Emails the alerts of a scheduled refresh not told yet to its owner: one email per run, at
 * most the user's number a day per spreadsheet, within MailApp's quota; `problem` says why the
 * Alerts sheet does not have them. Answers what became of it, or undefined when there was
 * nothing to tell; never throws.
 */
export function alertsEmail(
  platform: Platform,
  store: SettingsStore,
  alerts: readonly string[] | undefined,
  problem = '',
  seen = 0,
): AlertMail | undefined {
  const told = alerts ?? [];
  if (told.length === 0 && seen === 0) return undefined;
  const notSent = (text: string) => ({text, done: false});
  const documentId = platform.documentId();
  try {
    const workbook = platform.workbook();
    const at = platform.clock.now();
    const day = new Date(at + workbook.utcOffsetMinutes(at) * 60_000)
      .toISOString()
      .slice(0, 10);
    const {emailsPerDay} = store.alertSettings();
    const mails = store.alertMails(documentId);
    const sent = mails?.day === day ? mails.count : 0;
    if (sent >= emailsPerDay) {
      return {
        text: `No alert email: ${sent} ${sent === 1 ? 'was' : 'were'} already sent today (at most ${emailsPerDay} a day, in the sidebar settings).${emailsPerDay > 0 ? ' The next scheduled run that may email sends them.' : ''}`,
        done: emailsPerDay === 0,
      };
    }
    const to = platform.identity.email();
    if (!to) {
      return notSent(
        'No alert email: Google does not give Offer Desk the email address of this account.',
      );
    }
    if (platform.mail.remainingDailyQuota() < 1) {
      return notSent(
        'No alert email: the daily email quota of this Google account is used up.',
      );
    }
    const name = excerpt(workbook.name(), false);
    const listed = told.slice(0, IN_EMAIL).map(line => `• ${line}`);
    if (told.length > IN_EMAIL) {
      listed.push(`… and ${told.length - IN_EMAIL} more in the Alerts sheet.`);
    }
    const changed = seen > 0 ? counted(seen, 'field') : '';
    const found = [
      told.length > 0 ? counted(told.length, 'new alert') : '',
      changed && `${changed} changed on the server`,
    ]
      .filter(Boolean)
      .join(' and ');
    platform.mail.send(
      to,
      `Offer Desk: ${found} in "${name}"`,
      [
        ...(told.length > 0
          ? [
              `The scheduled refresh of "${name}" found ${counted(told.length, 'new alert')}:`,
              '',
              ...listed,
              '',
              ...(problem ? [problem, ''] : []),
              `Spreadsheet (sheet Alerts): ${workbook.url()}`,
              '',
            ]
          : []),
        ...(changed
          ? [
              `The scheduled refresh of "${name}" found ${changed} changed on the server since the last refresh, by no write of Offer Desk: each is a row of the History sheet (job "${SERVER_JOB}").`,
              '',
              `Spreadsheet (sheet History): ${workbook.url()}`,
              '',
            ]
          : []),
        `Offer Desk sends at most ${emailsPerDay} alert emails a day from this spreadsheet, one per scheduled refresh; change it in the sidebar settings.`,
      ].join('\n'),
    );
    store.setAlertMails(documentId, {day, count: sent + 1});
    return {text: `Emailed ${found} to ${to}.`, done: true};
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    return notSent(`No alert email: sending failed (${excerpt(text, false)}).`);
  }
}

/** Alerts rows the user has not marked seen: what the sidebar counts. */
export function unseenAlertCount(platform: Platform): number {
  return unseenAlerts(platform.workbook());
}
