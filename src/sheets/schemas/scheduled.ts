/**
 * The Scheduled sheet (DESIGN 4.3, 4.5, issue 27): one row per field of a record that a push
 * given a time will send then, and put back at revert_at if given. The add-on writes the rows
 * and their status; the user may cancel a WAITING row (delete it, or type CANCELLED).
 */
import {defineSchema} from '../schema';

/** One Scheduled row as sheets/scheduled.ts writes and reads it. */
export interface ScheduledRow {
  change_id: string;
  /** Instants as sheets/scheduled.ts shows them: '2026-01-05 11:00 +01:00 (Europe/Paris)'. */
  apply_at: string;
  revert_at: string;
  account: string;
  sheet: string;
  record: string;
  field: string;
  before: string;
  after: string;
  status: string;
  message: string;
}

export const SCHEDULED = defineSchema<ScheduledRow>({
  name: 'Scheduled',
  about:
    'Changes that go out later: a push given a time ("Push later…") writes here one row per field it would send, under one change_id, and puts the edited rows back to what was last pulled. The first scheduled refresh at or after apply_at (Apps Script fires an hourly trigger some time within the hour) reads each record: where the server still holds before, after goes out; else the row is CONFLICT and nothing is sent for that record. At revert_at, before goes back where the server still holds after. It goes out as a push does: a write whose answer is lost is read back in the same run, never sent twice. Every write is a History row. The rows show the change as stored when it was scheduled: a cell typed over is never sent (the row says it differs). To cancel a WAITING change, delete its rows or type CANCELLED in status.',
  id: 'change_id',
  // A change has one row per field of a record: what a settled status is written by. Its
  // status too: a row typed CANCELLED since the run read it is not the row it decided on, so
  // nothing is written there, and the change is not sent.
  identity: ['change_id', 'account', 'sheet', 'record', 'field', 'status'],
  sync: false,
  columns: [
    {
      header: 'change_id',
      type: 'text',
      width: 170,
      note: 'Shared by the rows of one scheduled push.',
    },
    {
      header: 'apply_at',
      type: 'text',
      note: "When after goes out: the first scheduled run at or after it (within the hour after). An instant, shown in the spreadsheet's time zone with its offset: changing the time zone moves no change.",
    },
    {
      header: 'revert_at',
      type: 'text',
      note: 'When before goes back; empty: never. A change not sent by then is never sent.',
    },
    {
      header: 'account',
      type: 'text',
      note: "Whose record: its requests are signed with that account's keys. Written as the record sheets write it ((main account), or the sub-account's name), so one filter finds an account's rows in every sheet.",
    },
    {
      header: 'sheet',
      type: 'text',
      note: 'The sheet the change came from.',
    },
    {
      header: 'record',
      type: 'text',
      note: 'The record: offer_id or campaign_id.',
    },
    {
      header: 'field',
      type: 'text',
      width: 160,
      note: 'The field; in Budgets, the budget group in brackets: daily_cap [US,CA].',
    },
    {
      header: 'before',
      type: 'text',
      width: 160,
      note: 'The value last pulled: what the server must still hold for after to go out.',
    },
    {
      header: 'after',
      type: 'text',
      width: 160,
      note: 'The value to send at apply_at.',
    },
    {
      header: 'status',
      type: 'text',
      note: 'WAITING (not sent yet), OK (sent and accepted), REVERTED (put back at revert_at), CONFLICT (the server held another value: nothing sent), ERROR (refused, missed its time, or no answer: see message), CANCELLED (typed by you: never sent).',
    },
    {
      header: 'message',
      type: 'text',
      width: 300,
      note: 'What happened, and when.',
    },
  ],
});
