/**
 * The sidebar's Push later (issue 27): a push of budgets, campaigns or tracking checked now and sent at a
 * time of the spreadsheet's time zone (and put back at another, if given), and the changes
 * still waiting, each with a Cancel button. Scheduling and cancelling run as jobs of the
 * sidebar: their result shows where job results show, and the list, if open, is read again.
 */
import type {JobSummary} from '../../jobs/run';
import type {WaitingChange} from '../../jobs/scheduled/waiting';
import {Busy, byId, element, say} from './dom';
import type {RunAction} from './history';
import {dateTime} from './schedule';
import {server} from './server';

/**
 * Unix seconds of a wall time typed as 'yyyy-mm-dd hh:mm' (the sheets' ISO dates; a 'T' may
 * stand for the space) in `timeZone`; NaN for none. The zone's offset is read back from Intl
 * at the guess, twice, for a time near a change of it.
 */
export function unixSeconds(local: string, timeZone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ]+(\d{1,2}):(\d{2})$/.exec(
    local.trim(),
  );
  if (!m) return NaN;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  // 2026-02-30 or 25:00 is no time, not a day or an hour later.
  const back = new Date(wall);
  if (back.getUTCDate() !== +m[3] || back.getUTCHours() !== +m[4]) return NaN;
  const offset = (at: number) =>
    Date.parse(`${dateTime(at, timeZone).replace(' ', 'T')}Z`) - at;
  let at = wall - offset(wall);
  at = wall - offset(at);
  return at / 1000;
}

/** The pushes the select offers, by its values. */
const PUSHES: Record<
  string,
  {
    title: string;
    run: (options: {at: number; until?: number}) => Promise<JobSummary>;
  }
> = {
  pushBudgets: {
    title: 'Push budgets later',
    run: options => server.pushBudgets(options),
  },
  pushCampaigns: {
    title: 'Push campaigns later',
    run: options => server.pushCampaigns(options),
  },
  pushTracking: {
    title: 'Push tracking links later',
    run: options => server.pushTracking(options),
  },
};

export class LaterPanel {
  private readonly push = byId<HTMLSelectElement>('later-push');
  private readonly at = byId<HTMLInputElement>('later-at');
  private readonly until = byId<HTMLInputElement>('later-until');
  private readonly schedule = byId<HTMLButtonElement>('later-schedule');
  private readonly message = byId('later-message');
  private readonly load = byId<HTMLButtonElement>('later-load');
  private readonly list = byId<HTMLUListElement>('later-list');
  private shown = false;
  private cancels: HTMLButtonElement[] = [];

  constructor(
    private readonly busy: Busy,
    private readonly runAction: RunAction,
  ) {
    this.busy.add(this.push, this.at, this.until, this.schedule, this.load);
    this.schedule.addEventListener('click', () => void this.pushLater());
    this.load.addEventListener('click', () => void this.show());
  }

  /** Lists the waiting changes again if the list is open (after a job). */
  async refresh(): Promise<void> {
    if (this.shown) await this.show();
  }

  private async pushLater(): Promise<void> {
    if (this.at.value.trim() === '') {
      say(this.message, 'Choose when to send it first.', 'error');
      return;
    }
    let timeZone: string;
    try {
      timeZone = (await this.busy.during(() => server.getSchedule())).timeZone;
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
      return;
    }
    say(this.message, '');
    const at = unixSeconds(this.at.value, timeZone);
    const until =
      this.until.value.trim() === ''
        ? undefined
        : unixSeconds(this.until.value, timeZone);
    const unread = [
      ['Send at', this.at.value, at],
      ['Put back at', this.until.value, until],
    ].find(([, , seconds]) => Number.isNaN(seconds));
    if (unread) {
      say(
        this.message,
        `${String(unread[0])}: type the date and time as the sheets write them, yyyy-mm-dd hh:mm (2026-01-05 14:30), not "${String(unread[1])}".`,
        'error',
      );
      return;
    }
    const options = until === undefined ? {at} : {at, until};
    const push = PUSHES[this.push.value] ?? PUSHES.pushBudgets;
    await this.runAction(push.title, () => push.run(options));
  }

  private async show(): Promise<void> {
    let waiting: WaitingChange[];
    try {
      waiting = await this.busy.during(() => server.listWaitingChanges());
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
      return;
    }
    this.shown = true;
    this.load.textContent = 'Show again';
    say(
      this.message,
      waiting.length === 0
        ? 'No change you can see is waiting.'
        : `${waiting.length} waiting, soonest first: each goes out within the hour after its time.`,
    );
    this.busy.forget(...this.cancels);
    this.cancels = [];
    this.list.replaceChildren(...waiting.map(w => this.item(w)));
  }

  private item(change: WaitingChange): HTMLElement {
    const item = element('li', '', {class: 'history-run'});
    item.append(
      element('p', `Sends at ${change.applyAt}`, {class: 'history-title'}),
      ...(change.revertAt
        ? [element('p', `Puts back at ${change.revertAt}`, {class: 'hint'})]
        : []),
    );
    const lines = element('ul', '', {class: 'history-lines'});
    lines.append(...change.fields.map(line => element('li', line)));
    const cancel = element('button', 'Cancel', {
      type: 'button',
      'aria-label': `Cancel change ${change.changeId}`,
    });
    this.busy.add(cancel);
    this.cancels.push(cancel);
    cancel.addEventListener(
      'click',
      () =>
        void this.runAction(`Cancel ${change.changeId}`, () =>
          server.cancelScheduledChange(change.changeId),
        ),
    );
    item.append(
      lines,
      cancel,
      element('p', `Change ${change.changeId}`, {class: 'hint'}),
    );
    return item;
  }
}
