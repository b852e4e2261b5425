import {Env} from './env';

/** One email the add-on sent. */
export interface SentMail {
  from: string;
  to: string;
  subject: string;
  body: string;
  atMs: number;
}

/** Emails per user per day: a consumer account's MailApp quota. */
export const DEFAULT_MAIL_QUOTA = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Every email sent, and each user's count for the current (virtual) day. */
export class Outbox {
  readonly sent: SentMail[] = [];
  constructor(readonly dailyQuota = DEFAULT_MAIL_QUOTA) {}

  sentToday(user: string, nowMs: number): number {
    const day = Math.floor(nowMs / DAY_MS);
    return this.sent.filter(
      m => m.from === user && Math.floor(m.atMs / DAY_MS) === day,
    ).length;
  }
}

/** The MailApp service: plain-text sendEmail and its daily quota, as the active user. */
export class FakeMailApp {
  constructor(
    private readonly env: Env,
    private readonly outbox: Outbox,
  ) {}

  getRemainingDailyQuota(): number {
    this.env.call('MailApp', 'MailApp.getRemainingDailyQuota');
    return Math.max(
      0,
      this.outbox.dailyQuota -
        this.outbox.sentToday(this.env.user, this.env.clock.now()),
    );
  }

  sendEmail(recipient: unknown, subject: unknown, body: unknown): void {
    this.env.call('MailApp', 'MailApp.sendEmail');
    const now = this.env.clock.now();
    if (typeof recipient !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(recipient))
      this.env.fail(`Invalid email: ${String(recipient)}`);
    if (this.outbox.sentToday(this.env.user, now) >= this.outbox.dailyQuota)
      this.env.fail('Service invoked too many times for one day: email.');
    this.outbox.sent.push({
      from: this.env.user,
      to: recipient,
      subject: String(subject),
      body: String(body),
      atMs: now,
    });
  }
}
