/**
 * The History sheet: one row per field of every write the add-on sent, appended once its
 * answer arrived, one block per batch of a job run (history.ts). It is the add-on's log, not
 * a sheet to edit: every cell warns before an edit, and nothing here is ever sent.
 */
import {defineSchema} from '../schema';

/** One History row as history.ts writes and reads it. */
export interface HistoryRow {
  time: Date;
  change_id: string;
  job: string;
  account: string;
  user: string;
  sheet: string;
  record: string;
  field: string;
  before: string;
  after: string;
  outcome: string;
  message: string;
}

export const HISTORY = defineSchema<HistoryRow>({
  name: 'History',
  about:
    'Every write Offer Desk sent, one row per field, appended once its answer arrived, batch by batch: every row of one job run shares a change_id and a time. Revert a change from the sidebar (History): its before values go back into their sheet as unpushed edits, for you to preview and push. Past the size set in the sidebar settings (50,000 rows unless changed), the oldest runs by time move, whole rows with your own columns, to a sheet named "History archive" and the date. Sort and filter it as you like: revert and the sidebar read it by change_id and time. Keys, tokens and passwords are never written here.',
  id: 'change_id',
  sync: false,
  columns: [
    {
      header: 'time',
      type: 'timestamp',
      note: 'When the job run that sent it started, to the second: every row of one change shares it, and so does the change_id, which begins with it in UTC; the sidebar shows the same time.',
    },
    {
      header: 'change_id',
      type: 'text',
      width: 170,
      note: 'Shared by everything one job run sent: revert takes it.',
    },
    {
      header: 'job',
      type: 'text',
      note: 'The job that sent it, e.g. pushBudgets; "changed on the server": a field a refresh found changed outside Offer Desk.',
    },
    {
      header: 'account',
      type: 'text',
      note: "Whose record was written (its keys signed the request). Written as the record sheets write it ((main account), or the sub-account's name), so one filter finds an account's rows in every sheet.",
    },
    {
      header: 'user',
      type: 'text',
      width: 180,
      note: 'Who ran the job: their Google email, empty where Apps Script does not give it (docs/limits.md).',
    },
    {
      header: 'sheet',
      type: 'text',
      note: 'The sheet the change came from.',
    },
    {
      header: 'record',
      type: 'text',
      note: 'The record: offer_id, campaign_id, a material md5 or a name (a create whose id is not known).',
    },
    {
      header: 'field',
      type: 'text',
      width: 160,
      note: "The field; in Budgets, the budget group in brackets: daily_cap [US,CA]. A create's field names what was created.",
    },
    {
      header: 'before',
      type: 'text',
      width: 160,
      note: 'The value before: as last pulled or last pushed. Empty: none.',
    },
    {
      header: 'after',
      type: 'text',
      width: 160,
      note: 'The value sent; for a change seen on the server (SEEN), its value now.',
    },
    {
      header: 'outcome',
      type: 'text',
      note: 'OK (the API accepted it), ERROR (refused: the message has its code and reason; the server keeps the before value), UNKNOWN (no answer proved what happened), SEEN (changed on the server outside Offer Desk, found by a refresh).',
    },
    {
      header: 'message',
      type: 'text',
      width: 300,
      note: 'What the row of the change said.',
    },
  ],
});
