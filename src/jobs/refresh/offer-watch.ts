/**
 * The alerts inside a refresh of offers (issue 21): after the Offers merge, what was pulled is
 * compared with the last pull (alerts.ts), the new alerts are appended to the Alerts sheet and
 * named in the summary; a scheduled refresh emails them (alertsEmail). The open conditions live
 * in the state book, beside the pulls they compare.
 */
import type {Offer} from '../../api/types';
import type {Platform, Workbook} from '../../platform/ports';
import {appendAlerts, unseenAlerts} from '../../sheets/alerts-sheet';
import type {SheetState, StateBook} from '../../sheets/state';
import {SheetLayoutError} from '../../sheets/table';
import {excerpt} from '../../rules/values';
import {counted} from '../../text/wording';
import {
  ALERTS_MEMO,
  Alert,
  OpenConditions,
  Watched,
  alertLine,
  watch,
  watchedFacts,
} from './alerts';
import {recordKey} from '../../sheets/accounts';
import type {JobSummary} from '../run';
import {SettingsStore} from '../settings-store';
import {TRACKING_SET_MEMO} from '../server-click-memory';

/** Alerts named in a summary's message; the Alerts sheet has them all. */
const IN_MESSAGE = 5;
/** Alerts listed in one email. */
const IN_EMAIL = 50;
/** Alerts kept for the next refresh when the sheet could not take them: a bound, not a goal. */
const UNWRITTEN = 1000;

interface Memo {
  /**
   * Until the state's version 3, the one account whose pulls the conditions followed, by
   * offer id; since, absent: conditions are by record key (accounts.ts), every account's.
   */
  account?: string;
  open: OpenConditions;
  /** Alerts found when the Alerts sheet could not be written: the next refresh writes them. */
  unwritten?: Alert[];
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

/** What one refresh of offers found. */
export class OfferWatch {
  private readonly found: Alert[] = [];
  private problem = '';

  constructor(private readonly platform: Platform) {}

  /**
   * Compares the offers just pulled with `previous` (the Offers state before this refresh),
   * appends the new alerts and remembers what is open. A failure to write the Alerts sheet
   * does not fail the refresh: the summary says so, and the alerts wait in the memo for the
   * next refresh (the pull they came from is the last pull by then: they would not be found
   * again).
   */
  check(
    where: {workbook: Workbook; state: StateBook; now: Date},
    previous: SheetState | undefined,
    listed: ReadonlyArray<{account: string; items: readonly Offer[]}>,
  ): void {
    const {state} = where;
    const now = where.now.getTime();
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
      current: listed.flatMap(({account, items}) =>
        items.map(o => ({
          id: recordKey(account, String(o.offer_id)),
          facts: watchedFacts(o),
        })),
      ),
      open: memo ? openByKey(memo) : {},
      tracked: state.memo<Record<string, number>>(TRACKING_SET_MEMO) ?? {},
      now,
      hours: new SettingsStore(this.platform.userProperties).alertSettings()
        .hours,
    });
    const alerts = [...(memo?.unwritten ?? []), ...result.alerts];
    const next: Memo = {open: result.open};
    try {
      appendAlerts(where.workbook, where.now, alerts);
      this.found.push(...alerts);
    } catch (e) {
      // The add-on's own layout message says what to do, in full; another error's is excerpted.
      this.problem =
        e instanceof SheetLayoutError
          ? e.message
          : excerpt(e instanceof Error ? e.message : String(e), false);
      next.unwritten = alerts.slice(-UNWRITTEN);
    }
    state.setMemo(ALERTS_MEMO, next);
    state.setMemo(TRACKING_SET_MEMO, result.tracked);
  }

  /** The summary with the new alerts named (all of them in `alerts`). */
  summarize(summary: JobSummary): JobSummary {
    if (this.problem) {
      return {
        ...summary,
        message: `${summary.message} The Alerts sheet could not be written (${this.problem}): the next refresh of offers writes its alerts.`,
      };
    }
    if (this.found.length === 0) return summary;
    const lines = this.found.map(alertLine);
    const named = lines.slice(0, IN_MESSAGE).join('; ');
    const more =
      lines.length > IN_MESSAGE
        ? `; ${lines.length - IN_MESSAGE} more in the Alerts sheet`
        : '';
    return {
      ...summary,
      alerts: lines,
      message: `${summary.message} ${counted(lines.length, 'new alert')}: ${named}${more}.`,
    };
  }
}

/**
 * Emails the new alerts of a scheduled refresh to its owner: one email per run, at most the
 * user's number a day per spreadsheet, within MailApp's quota. Answers what became of it, or
 * undefined when there was nothing to tell; never throws.
 */
export function alertsEmail(
  platform: Platform,
  store: SettingsStore,
  alerts: readonly string[] | undefined,
): string | undefined {
  if (!alerts || alerts.length === 0) return undefined;
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
      return `No alert email: ${sent} ${sent === 1 ? 'was' : 'were'} already sent today (at most ${emailsPerDay} a day, in the sidebar settings).`;
    }
    const to = platform.identity.email();
    if (!to) {
      return 'No alert email: Google does not give Offer Desk the email address of this account.';
    }
    if (platform.mail.remainingDailyQuota() < 1) {
      return 'No alert email: the daily email quota of this Google account is used up.';
    }
    const name = excerpt(workbook.name(), false);
    const listed = alerts.slice(0, IN_EMAIL).map(line => `• ${line}`);
    if (alerts.length > IN_EMAIL) {
      listed.push(
        `… and ${alerts.length - IN_EMAIL} more in the Alerts sheet.`,
      );
    }
    platform.mail.send(
      to,
      `Offer Desk: ${counted(alerts.length, 'new alert')} in "${name}"`,
      [
        `The scheduled refresh of "${name}" found ${counted(alerts.length, 'new alert')}:`,
        '',
        ...listed,
        '',
        `Spreadsheet (sheet Alerts): ${workbook.url()}`,
        '',
        `Offer Desk sends at most ${emailsPerDay} alert emails a day from this spreadsheet, one per scheduled refresh; change it in the sidebar settings.`,
      ].join('\n'),
    );
    store.setAlertMails(documentId, {day, count: sent + 1});
    return `Emailed ${counted(alerts.length, 'new alert')} to ${to}.`;
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    return `No alert email: sending failed (${excerpt(text, false)}).`;
  }
}

/** Alerts rows the user has not marked seen: what the sidebar counts. */
export function unseenAlertCount(platform: Platform): number {
  return unseenAlerts(platform.workbook());
}
