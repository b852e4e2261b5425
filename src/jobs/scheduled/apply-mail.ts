/**
 * The email a scheduled run sends its owner when it applied scheduled changes (issue 27): one
 * summary per run, what went out and what did not, with the rows not done listed. Never throws:
 * an email that fails never fails the run.
 */
import type {Platform} from '../../platform/ports';
import {excerpt} from '../../rules/values';

/** Rows not done listed in the email; the Scheduled sheet has the rest. */
const LISTED = 50;

/** Sends the summary; answers what became of the email, for the run's record. */
export function scheduledChangesEmail(
  platform: Platform,
  summary: string,
  problems: readonly string[],
): string {
  try {
    const to = platform.identity.email();
    if (!to) {
      return 'No email of the scheduled changes: Google does not give Offer Desk the email address of this account.';
    }
    if (platform.mail.remainingDailyQuota() < 1) {
      return 'No email of the scheduled changes: the daily email quota of this Google account is used up.';
    }
    const workbook = platform.workbook();
    const name = excerpt(workbook.name(), false);
    const listed = problems.slice(0, LISTED).map(line => `• ${line}`);
    if (problems.length > LISTED) {
      listed.push(
        `… and ${problems.length - LISTED} more in the Scheduled sheet.`,
      );
    }
    platform.mail.send(
      to,
      `Offer Desk: scheduled changes in "${name}"`,
      [
        `The scheduled run of "${name}" applied its due changes. ${summary}`,
        ...(listed.length > 0 ? ['', 'Not done:', ...listed] : []),
        '',
        `Spreadsheet (sheet Scheduled): ${workbook.url()}`,
      ].join('\n'),
    );
    return `Emailed the scheduled changes to ${to}.`;
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    return `No email of the scheduled changes: sending failed (${excerpt(text, false)}).`;
  }
}
