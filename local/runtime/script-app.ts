import {createHash} from 'node:crypto';
import {makeEnum} from './enums';
import {Env} from './env';
import type {Authorizations} from './trigger-conditions';
import {
  EventType,
  FakeTrigger,
  newTriggerBuilder,
  TriggerPolicy,
  TriggerSource,
  TriggerTable,
  WeekDay,
} from './triggers';

export const AuthMode = makeEnum([
  'NONE',
  'CUSTOM_FUNCTION',
  'LIMITED',
  'FULL',
] as const);
export const AuthorizationStatus = makeEnum([
  'REQUIRED',
  'NOT_REQUIRED',
] as const);

class FakeAuthorizationInfo {
  constructor(
    private readonly required: boolean,
    private readonly url: string | null,
  ) {}

  getAuthorizationStatus() {
    return this.required
      ? AuthorizationStatus.REQUIRED
      : AuthorizationStatus.NOT_REQUIRED;
  }

  /** Null when no authorization is required, as Google answers. */
  getAuthorizationUrl(): string | null {
    return this.url;
  }

  getAuthorizedScopes(): string[] {
    return [];
  }
}

/** The user's OAuth token, as the fake Drive API checks it. */
export function oauthTokenOf(user: string): string {
  return `ya29.fake-${createHash('sha256').update(user).digest('hex').slice(0, 24)}`;
}

/** The ScriptApp global: triggers (with the add-on limits), enums, ids and tokens. */
export class FakeScriptApp {
  readonly AuthMode = AuthMode;
  readonly AuthorizationStatus = AuthorizationStatus;
  readonly EventType = EventType;
  readonly TriggerSource = TriggerSource;
  readonly WeekDay = WeekDay;

  constructor(
    private readonly env: Env,
    private readonly table: TriggerTable,
    private readonly policy: TriggerPolicy,
    private readonly scriptId: string,
    private readonly authorizations: Authorizations,
  ) {}

  newTrigger(functionName: string) {
    this.env.call('ScriptApp', 'ScriptApp.newTrigger');
    return newTriggerBuilder(this.env, this.table, this.policy, functionName);
  }

  /** The current user's triggers in this project. */
  getProjectTriggers(): FakeTrigger[] {
    this.env.call('ScriptApp', 'ScriptApp.getProjectTriggers');
    return this.wrap(t => t.user === this.env.user);
  }

  /** The current user's triggers for this document. */
  getUserTriggers(document: unknown): FakeTrigger[] {
    this.env.call('ScriptApp', 'ScriptApp.getUserTriggers');
    if (!document) this.env.fail('Invalid argument: document');
    return this.wrap(
      t => t.user === this.env.user && t.documentId === this.policy.documentId,
    );
  }

  deleteTrigger(trigger: FakeTrigger): void {
    this.env.call('ScriptApp', 'ScriptApp.deleteTrigger');
    if (!(trigger instanceof FakeTrigger))
      this.env.fail('Invalid argument: trigger');
    const at = this.table.records.findIndex(
      r => r.id === trigger.record.id && r.user === this.env.user,
    );
    if (at >= 0) this.table.records.splice(at, 1);
  }

  getScriptId(): string {
    this.env.call('ScriptApp', 'ScriptApp.getScriptId');
    return this.scriptId;
  }

  getOAuthToken(): string {
    this.env.call('ScriptApp', 'ScriptApp.getOAuthToken');
    return oauthTokenOf(this.env.user);
  }

  getAuthorizationInfo(authMode: unknown): FakeAuthorizationInfo {
    this.env.call('ScriptApp', 'ScriptApp.getAuthorizationInfo');
    if (
      !Object.values(AuthMode).includes(authMode as (typeof AuthMode)['FULL'])
    ) {
      this.env.fail('Invalid argument: authMode');
    }
    return new FakeAuthorizationInfo(
      this.authorizations.required(this.env.user),
      this.authorizations.url(this.env.user),
    );
  }

  private wrap(
    keep: (t: TriggerTable['records'][number]) => boolean,
  ): FakeTrigger[] {
    return this.env.realm.array(
      this.table.records.filter(keep).map(r => new FakeTrigger(r)),
    );
  }
}
