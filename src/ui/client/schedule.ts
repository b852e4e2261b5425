/**
 * The scheduled refresh: off, every 1 to 12 hours, or once a day at a chosen hour of the
 * spreadsheet's day; and what the last scheduled run did.
 */
import type {ScheduleView} from '../../jobs/host/schedule';
import type {ScheduledRun} from '../../jobs/settings-store';
import {SCHEDULABLE, jobSpec} from '../../jobs/catalog';
import {Busy, Tone, byId, element, say} from './dom';
import {server} from './server';

const DAILY = 24;

export const OUTCOME_TONE: Record<ScheduledRun['outcome'], Tone> = {
  unfinished: 'warn',
  ok: 'ok',
  attention: 'warn',
  skipped: 'warn',
  error: 'error',
  unauthorized: 'error',
  quota: 'warn',
  misfired: 'error',
};

function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/** "every 4 hours", "once a day at 06:00 (Europe/Berlin)" */
export function describeSchedule(view: ScheduleView): string {
  if (view.hours === DAILY) {
    return view.hourOfDay === null
      ? 'once a day'
      : `once a day at ${hourLabel(view.hourOfDay)} (${view.timeZone})`;
  }
  return view.hours === 1 ? 'every hour' : `every ${view.hours} hours`;
}

/**
 * "2026-01-05 13:00:47" in the spreadsheet's time zone: the format of synced_at in the sheets,
 * whatever the browser's locale.
 */
export function dateTime(ms: number, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(ms));
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = format(timeZone);
  } catch {
    parts = format('UTC'); // a zone this browser does not know
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find(p => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** "Scheduled: Refresh everything, every 4 hours." or "Scheduled refresh is off." */
function scheduleLine(view: ScheduleView): string {
  return view.hours > 0
    ? `Scheduled: ${jobSpec(view.job)?.title ?? view.job}, ${describeSchedule(view)}.`
    : 'Scheduled refresh is off.';
}

export class SchedulePanel {
  private readonly every = byId<HTMLSelectElement>('schedule-every');
  private readonly hourField = byId('schedule-hour-field');
  private readonly hour = byId<HTMLSelectElement>('schedule-hour');
  private readonly zone = byId('schedule-zone');
  private readonly job = byId<HTMLSelectElement>('schedule-job');
  private readonly message = byId('schedule-message');
  private readonly last = byId('schedule-last');
  private shown: ScheduleView | undefined;

  constructor(
    private readonly busy: Busy,
    /** A scheduled run ended since the schedule was last shown. */
    private readonly newRun: (run: ScheduledRun) => void = () => undefined,
  ) {
    const save = byId<HTMLButtonElement>('schedule-save');
    busy.add(this.every, this.hour, this.job, save);
    this.hour.append(element('option', 'Any time of day', {value: ''}));
    for (let h = 0; h < 24; h++) {
      this.hour.append(element('option', hourLabel(h), {value: String(h)}));
    }
    this.job.append(
      ...SCHEDULABLE.map(fn =>
        element('option', jobSpec(fn)?.title ?? fn, {value: fn}),
      ),
    );
    this.every.addEventListener('change', () => this.showHour());
    save.addEventListener('click', () => void this.save());
  }

  async load(): Promise<void> {
    try {
      this.show(await server.getSchedule());
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
    }
  }

  /**
   * Shows the schedule as saved. A choice the user is making and has not saved yet stays: the
   * sidebar's polling reloads the schedule whenever it changes, the sidebar's own saves included.
   */
  show(view: ScheduleView): void {
    if (!this.editing()) {
      this.every.value = String(view.hours);
      this.hour.value = view.hourOfDay === null ? '' : String(view.hourOfDay);
      this.job.value = view.job;
      this.showHour();
    }
    // Apps Script picks a time within the hour for a daily trigger, not its start.
    this.zone.textContent = `Hours of the spreadsheet's time zone, ${view.timeZone}. It runs some time within the hour chosen.`;
    const before = this.shown;
    this.shown = view;
    if (view.paused) {
      say(this.message, view.paused, 'error');
    } else if (view.triggerMissing) {
      say(
        this.message,
        'This schedule is saved but its trigger was removed outside Offer Desk: save it again to restore it.',
        'warn',
      );
    } else if (before && scheduleLine(before) !== scheduleLine(view)) {
      // Changed elsewhere (the menu's Turn off): what an earlier save said is no longer true.
      say(this.message, scheduleLine(view));
    }
    const run = view.lastRun;
    if (run) {
      const email = run.email ? ` ${run.email}` : '';
      say(
        this.last,
        `Last scheduled run, ${dateTime(run.at, view.timeZone)}: ${run.message}${email}`,
        OUTCOME_TONE[run.outcome],
      );
      if (before && before.lastRun?.at !== run.at) this.newRun(run);
    } else {
      say(this.last, view.hours > 0 ? 'No scheduled run yet.' : '');
    }
  }

  /** Whether the fields differ from the schedule last shown: the user is choosing another. */
  private editing(): boolean {
    const shown = this.shown;
    if (!shown) return false;
    const hour = shown.hourOfDay === null ? '' : String(shown.hourOfDay);
    return (
      this.every.value !== String(shown.hours) ||
      (Number(this.every.value) === DAILY && this.hour.value !== hour) ||
      this.job.value !== shown.job
    );
  }

  private showHour(): void {
    this.hourField.hidden = Number(this.every.value) !== DAILY;
  }

  private async save(): Promise<void> {
    const hours = Number(this.every.value);
    const options =
      hours === DAILY && this.hour.value !== ''
        ? {job: this.job.value, hourOfDay: Number(this.hour.value)}
        : {job: this.job.value};
    say(this.message, 'Saving the schedule…');
    try {
      const view = await this.busy.during(() =>
        server.setRefreshSchedule(hours, hours > 0 ? options : undefined),
      );
      // Saved: the fields are the schedule now, whatever they were.
      this.shown = undefined;
      this.show(view);
      say(this.message, scheduleLine(view), 'ok');
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
    }
  }
}
