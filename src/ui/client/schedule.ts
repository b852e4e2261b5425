/**
 * The scheduled refresh: off, every 1 to 12 hours, or once a day at a chosen hour of the
 * spreadsheet's day; and what the last scheduled run did.
 */
import type {ScheduleView} from '../../jobs/schedule';
import type {ScheduledRun} from '../../jobs/settings-store';
import {SCHEDULABLE, jobSpec} from '../catalog';
import {Busy, Tone, byId, element, say} from './dom';
import {server} from './server';

const DAILY = 24;

const OUTCOME_TONE: Record<ScheduledRun['outcome'], Tone> = {
  ok: 'ok',
  attention: 'warn',
  skipped: 'warn',
  error: 'error',
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

export class SchedulePanel {
  private readonly every = byId<HTMLSelectElement>('schedule-every');
  private readonly hourField = byId('schedule-hour-field');
  private readonly hour = byId<HTMLSelectElement>('schedule-hour');
  private readonly zone = byId('schedule-zone');
  private readonly job = byId<HTMLSelectElement>('schedule-job');
  private readonly message = byId('schedule-message');
  private readonly last = byId('schedule-last');

  constructor(private readonly busy: Busy) {
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

  show(view: ScheduleView): void {
    this.every.value = String(view.hours);
    this.hour.value = view.hourOfDay === null ? '' : String(view.hourOfDay);
    this.job.value = view.job;
    this.zone.textContent = `Hours of the spreadsheet's time zone, ${view.timeZone}.`;
    this.showHour();
    if (view.triggerMissing) {
      say(
        this.message,
        'This schedule is saved but its trigger was removed outside Offer Desk: save it again to restore it.',
        'warn',
      );
    }
    const run = view.lastRun;
    if (run) {
      say(
        this.last,
        `Last scheduled run, ${new Date(run.at).toLocaleString()}: ${run.message}`,
        OUTCOME_TONE[run.outcome],
      );
    } else {
      say(this.last, view.hours > 0 ? 'No scheduled run yet.' : '');
    }
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
      this.show(view);
      say(
        this.message,
        view.hours > 0
          ? `Scheduled: ${jobSpec(view.job)?.title ?? view.job}, ${describeSchedule(view)}.`
          : 'Scheduled refresh is off.',
        'ok',
      );
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
    }
  }
}
