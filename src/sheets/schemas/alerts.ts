/**
 * The Alerts sheet (DESIGN 4.3, issue 21): one row per condition on the server that needs a
 * person, appended by every refresh of offers when the condition appears, and one more when it
 * clears (jobs/refresh/alerts.ts). The add-on never edits a row after writing it; `seen` is the
 * user's, and the sidebar counts the rows not yet seen.
 */
import {defineSchema} from '../schema';

/** One Alerts row as jobs/refresh/alerts.ts writes it. */
export interface AlertRow {
  time: Date;
  account: string;
  offer_id: number | string;
  offer_name: string;
  what: string;
  before: string;
  after: string;
  reason: string;
  seen: string;
}

export const ALERTS = defineSchema<AlertRow>({
  name: 'Alerts',
  about:
    'What changed on the server that needs a person, found by comparing each refresh of offers (menu, sidebar or schedule) with the last: an offer that left RUNNING, a stop reason that appeared or changed, a click URL that has not passed its test some hours after Offer Desk created the offer or set its tracking, an offer still PENDING some hours after its start_time (6 hours unless changed in the sidebar settings). A condition is written once when it appears and once more when it clears. Tick or type anything in `seen` once you have looked: the sidebar counts the rows not seen. A scheduled refresh that finds new alerts emails them to the owner of the schedule. Offer Desk never edits a row after writing it; past 50,000 rows the oldest move to an archive sheet.',
  // A log's run key (log-sheet.ts): the rows of one refresh share their time.
  id: 'time',
  sync: false,
  columns: [
    {
      header: 'time',
      type: 'timestamp',
      note: 'When the refresh that found it ran.',
    },
    {
      header: 'account',
      type: 'text',
      note: "Whose offer it is. Written as the record sheets write it ((main account), or the sub-account's name), so one filter finds an account's rows in every sheet.",
    },
    {
      header: 'offer_id',
      type: 'integer',
      note: 'The offer.',
    },
    {
      header: 'offer_name',
      type: 'text',
      width: 180,
      note: 'The offer name, as pulled.',
    },
    {
      header: 'what',
      type: 'text',
      // The longest condition, "click URL not passed 6 hours after Offer Desk set it", whole.
      width: 330,
      note: 'The condition: status left RUNNING, stop reason appeared or changed, click URL not passed, still PENDING; or that one of these cleared.',
    },
    {
      header: 'before',
      type: 'text',
      note: 'The value at the last refresh (status, stop reason or click_url_status).',
    },
    {
      header: 'after',
      type: 'text',
      note: 'The value now.',
    },
    {
      header: 'reason',
      type: 'text',
      width: 200,
      note: "The offer's offer_stop_reason as the server gives it; empty when it gives none.",
    },
    {
      header: 'seen',
      type: 'text',
      typed: true,
      // A tick or an x: narrow, so the last column is a short scroll away.
      width: 60,
      note: 'Yours: type anything (x, TRUE) once you have looked; the sidebar counts the rows left empty (or FALSE).',
    },
  ],
});
