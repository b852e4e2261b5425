import {createHash} from 'node:crypto';
import {Env} from './env';

class FakeUser {
  constructor(private readonly email: string) {}

  getEmail(): string {
    return this.email;
  }

  toString(): string {
    return this.email;
  }
}

/** The Session service. Who is "active" is whoever the runtime runs the execution as. */
export class FakeSession {
  constructor(
    private readonly env: Env,
    private readonly scriptTimeZone: string,
  ) {}

  getActiveUser(): FakeUser {
    this.env.call('Session', 'Session.getActiveUser');
    return new FakeUser(this.env.user);
  }

  getEffectiveUser(): FakeUser {
    this.env.call('Session', 'Session.getEffectiveUser');
    return new FakeUser(this.env.user);
  }

  /** Stable per user and script, opaque, never the email (as Apps Script's). */
  getTemporaryActiveUserKey(): string {
    this.env.call('Session', 'Session.getTemporaryActiveUserKey');
    return createHash('sha256')
      .update(`offer-desk:${this.env.user}`)
      .digest('base64url');
  }

  getScriptTimeZone(): string {
    this.env.call('Session', 'Session.getScriptTimeZone');
    return this.scriptTimeZone;
  }

  getActiveUserLocale(): string {
    this.env.call('Session', 'Session.getActiveUserLocale');
    return 'en';
  }
}
