import {createHash} from 'node:crypto';
import {Env} from './env';

/** A user as Session and Protection.getEditors answer it. */
export class FakeUser {
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
    /**
     * Answer '' for every email, as Apps Script does where its policy hides it (a Workspace
     * user of another domain than the script owner's, some consumer accounts).
     */
    private readonly hideEmail = false,
  ) {}

  getActiveUser(): FakeUser {
    this.env.call('Session', 'Session.getActiveUser');
    return this.user();
  }

  getEffectiveUser(): FakeUser {
    this.env.call('Session', 'Session.getEffectiveUser');
    return this.user();
  }

  private user(): FakeUser {
    return new FakeUser(this.hideEmail ? '' : this.env.user);
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
