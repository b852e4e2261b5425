import {makeEnum} from './enums';
import {Env} from './env';
import {types} from 'node:util';
import {instantOf, isTimeZone, wallTime, weekday} from './time-zone';

export const EventType = makeEnum([
  'CLOCK',
  'ON_OPEN',
  'ON_EDIT',
  'ON_FORM_SUBMIT',
  'ON_CHANGE',
  'ON_EVENT_UPDATED',
] as const);
export const TriggerSource = makeEnum([
  'SPREADSHEETS',
  'CLOCK',
  'FORMS',
  'DOCUMENTS',
  'CALENDAR',
] as const);
export const WeekDay = makeEnum([
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
] as const);

type EventTypeName = keyof typeof EventType;

const HOUR_MS = 3600000;
const DAY_MS = 24 * HOUR_MS;
const MAX_TRIGGERS_PER_USER = 20;
const MINUTE_STEPS = [1, 5, 10, 15, 30];
const HOUR_STEPS = [1, 2, 4, 6, 8, 12];

/** An installed trigger, as the runtime keeps it. */
export interface TriggerRecord {
  readonly id: string;
  readonly handler: string;
  readonly eventType: EventTypeName;
  readonly user: string;
  /** The document it was created for (add-on triggers belong to one document). */
  readonly documentId: string;
  /** Time-driven only: repeat interval (0 for a one-off) and the next time it is due. */
  readonly everyMs: number;
  nextRunMs: number;
  readonly timeZone: string;
}

/** Every installed trigger of the project, for all users. */
export class TriggerTable {
  readonly records: TriggerRecord[] = [];
  private nextId = 1;

  newId(): string {
    return String(this.nextId++);
  }

  /** Time-driven triggers due by `untilMs`, earliest first. */
  due(untilMs: number): TriggerRecord[] {
    return this.records
      .filter(t => t.eventType === 'CLOCK' && t.nextRunMs <= untilMs)
      .sort((a, b) => a.nextRunMs - b.nextRunMs);
  }

  /** After a run: the next time it is due, or gone if it was a one-off. */
  ran(record: TriggerRecord): void {
    if (record.everyMs > 0) record.nextRunMs += record.everyMs;
    else this.records.splice(this.records.indexOf(record), 1);
  }
}

/** Rules of the project, set by the runtime's options. */
export interface TriggerPolicy {
  /** Editor add-on limits: one trigger of each event type per user per document, at most hourly. */
  addon: boolean;
  documentId: string;
  scriptTimeZone: string;
}

export class FakeTrigger {
  constructor(readonly record: TriggerRecord) {}

  getHandlerFunction(): string {
    return this.record.handler;
  }

  getUniqueId(): string {
    return this.record.id;
  }

  getEventType() {
    return EventType[this.record.eventType];
  }

  getTriggerSource() {
    return this.record.eventType === 'CLOCK'
      ? TriggerSource.CLOCK
      : TriggerSource.SPREADSHEETS;
  }

  getTriggerSourceId(): string | null {
    return this.record.eventType === 'CLOCK' ? null : this.record.documentId;
  }

  toString(): string {
    return 'Trigger';
  }
}

/** Shared by both builders: the checks every new trigger passes, then installation. */
class Installer {
  constructor(
    readonly env: Env,
    readonly table: TriggerTable,
    readonly policy: TriggerPolicy,
    readonly handler: string,
  ) {}

  install(
    eventType: EventTypeName,
    everyMs: number,
    firstRunMs: number,
    timeZone: string,
  ): FakeTrigger {
    const mine = this.table.records.filter(t => t.user === this.env.user);
    if (mine.length >= MAX_TRIGGERS_PER_USER) {
      this.env.fail(
        'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
      );
    }
    if (this.policy.addon) {
      if (eventType === 'CLOCK' && everyMs > 0 && everyMs < HOUR_MS) {
        this.env.fail(
          'Add-ons can only create time-based triggers that run at most once per hour.',
        );
      }
      if (
        mine.some(
          t =>
            t.eventType === eventType &&
            t.documentId === this.policy.documentId,
        )
      ) {
        const kind =
          eventType === 'CLOCK'
            ? 'time-based'
            : eventType.toLowerCase().replace('on_', '');
        this.env.fail(
          `This add-on has created too many ${kind} triggers in this document for this Google user account.`,
        );
      }
    }
    const record: TriggerRecord = {
      id: this.table.newId(),
      handler: this.handler,
      eventType,
      user: this.env.user,
      documentId: this.policy.documentId,
      everyMs,
      nextRunMs: firstRunMs,
      timeZone,
    };
    this.table.records.push(record);
    return new FakeTrigger(record);
  }
}

class FakeClockTriggerBuilder {
  private everyMs = 0;
  private unit: 'minutes' | 'hours' | 'days' | 'weeks' | 'once' | undefined;
  private hour: number | undefined;
  private minute: number | undefined;
  private weekDay: number | undefined;
  private onceAtMs: number | undefined;
  private timeZone: string;

  constructor(private readonly installer: Installer) {
    this.timeZone = installer.policy.scriptTimeZone;
  }

  everyMinutes(n: number): FakeClockTriggerBuilder {
    if (!MINUTE_STEPS.includes(n))
      this.fail('The value passed to everyMinutes must be 1, 5, 10, 15 or 30.');
    return this.every('minutes', n * 60000);
  }

  everyHours(n: number): FakeClockTriggerBuilder {
    if (!HOUR_STEPS.includes(n))
      this.fail('The value passed to everyHours must be 1, 2, 4, 6, 8 or 12.');
    return this.every('hours', n * HOUR_MS);
  }

  everyDays(n: number): FakeClockTriggerBuilder {
    if (!Number.isInteger(n) || n < 1) this.fail('Invalid argument: n');
    return this.every('days', n * DAY_MS);
  }

  everyWeeks(n: number): FakeClockTriggerBuilder {
    if (!Number.isInteger(n) || n < 1) this.fail('Invalid argument: n');
    return this.every('weeks', n * 7 * DAY_MS);
  }

  atHour(hour: number): FakeClockTriggerBuilder {
    if (!Number.isInteger(hour) || hour < 0 || hour > 23)
      this.fail('Invalid argument: hour');
    this.hour = hour;
    return this;
  }

  nearMinute(minute: number): FakeClockTriggerBuilder {
    if (!Number.isInteger(minute) || minute < 0 || minute > 59)
      this.fail('Invalid argument: minute');
    this.minute = minute;
    return this;
  }

  onWeekDay(day: unknown): FakeClockTriggerBuilder {
    const index = Object.values(WeekDay).indexOf(
      day as (typeof WeekDay)['MONDAY'],
    );
    if (index < 0) this.fail('Invalid argument: day');
    this.weekDay = index;
    return this;
  }

  inTimezone(timezone: string): FakeClockTriggerBuilder {
    if (!isTimeZone(String(timezone))) this.fail('Invalid argument: timezone');
    this.timeZone = String(timezone);
    return this;
  }

  after(durationMilliseconds: number): FakeClockTriggerBuilder {
    if (!(durationMilliseconds >= 0))
      this.fail('Invalid argument: durationMilliseconds');
    this.unit = 'once';
    this.onceAtMs = this.installer.env.clock.now() + durationMilliseconds;
    return this;
  }

  at(date: unknown): FakeClockTriggerBuilder {
    if (!types.isDate(date)) this.fail('Invalid argument: date');
    this.unit = 'once';
    this.onceAtMs = date.getTime();
    return this;
  }

  create(): FakeTrigger {
    this.installer.env.call('ScriptApp', 'ClockTriggerBuilder.create');
    if (!this.unit)
      this.fail(
        'Time-based triggers must specify how often they run (everyHours, everyDays, ...).',
      );
    return this.installer.install(
      'CLOCK',
      this.everyMs,
      this.firstRun(),
      this.timeZone,
    );
  }

  private every(
    unit: 'minutes' | 'hours' | 'days' | 'weeks',
    ms: number,
  ): FakeClockTriggerBuilder {
    this.unit = unit;
    this.everyMs = ms;
    return this;
  }

  /** The first run: interval triggers start one interval out; daily/weekly ones at atHour/nearMinute. */
  private firstRun(): number {
    const now = this.installer.env.clock.now();
    if (this.unit === 'once') return this.onceAtMs!;
    if (
      this.unit === 'minutes' ||
      this.unit === 'hours' ||
      this.hour === undefined
    )
      return now + this.everyMs;
    const today = wallTime(now, this.timeZone);
    let at = instantOf(
      {
        ...today,
        hour: this.hour,
        minute: this.minute ?? 0,
        second: 0,
        millisecond: 0,
      },
      this.timeZone,
    );
    while (
      at <= now ||
      (this.weekDay !== undefined &&
        weekday(wallTime(at, this.timeZone)) !== this.weekDay)
    )
      at += DAY_MS;
    return at;
  }

  private fail(message: string): never {
    return this.installer.env.fail(message);
  }
}

class FakeSpreadsheetTriggerBuilder {
  constructor(private readonly installer: Installer) {}

  onOpen() {
    return this.creator('ON_OPEN');
  }

  onEdit() {
    return this.creator('ON_EDIT');
  }

  onChange() {
    return this.creator('ON_CHANGE');
  }

  onFormSubmit() {
    return this.creator('ON_FORM_SUBMIT');
  }

  private creator(eventType: EventTypeName) {
    const installer = this.installer;
    return {
      create(): FakeTrigger {
        installer.env.call('ScriptApp', 'SpreadsheetTriggerBuilder.create');
        return installer.install(
          eventType,
          0,
          Infinity,
          installer.policy.scriptTimeZone,
        );
      },
    };
  }
}

export class FakeTriggerBuilder {
  constructor(private readonly installer: Installer) {}

  timeBased(): FakeClockTriggerBuilder {
    return new FakeClockTriggerBuilder(this.installer);
  }

  forSpreadsheet(spreadsheet: unknown): FakeSpreadsheetTriggerBuilder {
    if (!spreadsheet) this.installer.env.fail('Invalid argument: spreadsheet');
    return new FakeSpreadsheetTriggerBuilder(this.installer);
  }
}

export function newTriggerBuilder(
  env: Env,
  table: TriggerTable,
  policy: TriggerPolicy,
  handler: string,
): FakeTriggerBuilder {
  if (typeof handler !== 'string' || handler === '')
    env.fail('Invalid argument: functionName');
  return new FakeTriggerBuilder(new Installer(env, table, policy, handler));
}
