/**
 * The connection settings, the budget guard and the alerts. The api key is write-only: the form
 * shows whether one is saved, never its value; left empty it keeps the saved one. Fields are
 * checked with the same rules the server applies, as the user types.
 */
import type {ConnectionCheck} from '../../jobs/host/connection-test';
import type {
  SettingsForm as SettingsInputs,
  SettingsView,
} from '../../jobs/host/settings';
import {
  DEFAULT_GUARD,
  GuardSettings,
  ceilingsText,
  readGuard,
} from '../../rules/budget-guard';
import {
  FieldErrors,
  SettingsInput,
  settingsProblems,
} from '../../rules/settings';
import {Busy, byId, say} from './dom';
import {server} from './server';

type Field = keyof SettingsInput;

const LABELS: Record<Field, string> = {
  baseUrl: 'Base URL',
  uploadBaseUrl: 'Upload URL',
  accessKey: 'Access key',
  apiKey: 'Api key',
};

const FIELDS = Object.keys(LABELS) as Field[];

/** Which field a failed connection test points at. */
const TEST_FIELD: Partial<
  Record<NonNullable<ConnectionCheck['problem']>, Field>
> = {
  network: 'baseUrl',
  url: 'baseUrl',
};

export class SettingsForm {
  private readonly form = byId<HTMLFormElement>('settings-form');
  private readonly message = byId('settings-message');
  private readonly apiKeyState = byId('apiKey-state');
  private readonly serverClick = byId<HTMLSelectElement>('supportServerClick');
  private readonly holding = byId<HTMLInputElement>('guardHolding');
  private readonly factor = byId<HTMLInputElement>('guardFactor');
  private readonly cutFactor = byId<HTMLInputElement>('guardCutFactor');
  private readonly ceilings = byId<HTMLInputElement>('guardCeilings');
  private readonly alertHours = byId<HTMLInputElement>('alertHours');
  private readonly alertEmails = byId<HTMLInputElement>('alertEmails');
  private readonly touched = new Set<Field>();
  private saved: SettingsView | undefined;

  constructor(
    private readonly busy: Busy,
    private readonly onSaved: (view: SettingsView) => void,
  ) {
    const save = byId<HTMLButtonElement>('save-settings');
    const test = byId<HTMLButtonElement>('test-connection');
    busy.add(save, test);
    for (const field of FIELDS) {
      const input = this.input(field);
      input.addEventListener('input', () => {
        this.touched.add(field);
        this.check();
      });
      input.addEventListener('blur', () => {
        if (input.value !== '') this.touched.add(field);
        this.check();
      });
    }
    this.form.addEventListener('submit', event => {
      event.preventDefault();
      void this.save();
    });
    test.addEventListener('click', () => void this.test());
    for (const input of [this.factor, this.cutFactor, this.ceilings])
      input.addEventListener('input', () => this.checkGuard());
  }

  show(view: SettingsView): void {
    this.saved = view;
    this.input('baseUrl').value = view.baseUrl;
    this.input('uploadBaseUrl').value =
      view.uploadBaseUrl === view.baseUrl ? '' : view.uploadBaseUrl;
    this.input('accessKey').value = view.accessKey;
    this.input('apiKey').value = '';
    this.serverClick.value = view.supportServerClick || 'ask';
    this.holding.checked = view.guard.holding;
    this.factor.value = String(view.guard.factor);
    this.cutFactor.value = String(view.guard.cutFactor);
    this.ceilings.value = ceilingsText(view.guard.ceilings);
    this.alertHours.value = String(view.alerts.hours);
    this.alertEmails.value = String(view.alerts.emailsPerDay);
    this.input('apiKey').placeholder = view.hasApiKey ? '•••••••• (saved)' : '';
    this.apiKeyState.textContent = view.hasApiKey
      ? 'Saved. Leave it empty to keep it; type a new one to replace it.'
      : 'Not saved yet.';
    this.touched.clear();
    this.check();
    if (!view.baseUrl || !view.accessKey || !view.hasApiKey) {
      say(
        this.message,
        'Enter the base URL, access key and api key of your main account, then Save.',
        'info',
      );
    }
  }

  private input(field: Field): HTMLInputElement {
    return byId<HTMLInputElement>(field);
  }

  private values(): SettingsInputs {
    const value = (field: Field) => this.input(field).value.trim();
    const input: SettingsInputs = {
      baseUrl: value('baseUrl'),
      uploadBaseUrl: value('uploadBaseUrl'),
      accessKey: value('accessKey'),
      supportServerClick: this.serverClick.value,
      guard: {
        holding: this.holding.checked,
        factor: this.factor.value.trim(),
        cutFactor: this.cutFactor.value.trim(),
        ceilings: this.ceilings.value,
      },
      alerts: {
        hours: this.alertHours.value.trim(),
        emailsPerDay: this.alertEmails.value.trim(),
      },
    };
    if (value('apiKey') !== '') input.apiKey = value('apiKey');
    return input;
  }

  /** Marks fields the user has touched (all of them with `all`); answers every problem. */
  private check(all = false): FieldErrors {
    const errors = settingsProblems(
      this.values(),
      this.saved?.hasApiKey ?? false,
    );
    for (const field of FIELDS) {
      const problem =
        all || this.touched.has(field) ? errors[field] : undefined;
      this.mark(field, problem ? `${LABELS[field]} ${problem}.` : '');
    }
    return errors;
  }

  private mark(field: Field, text: string): void {
    const input = this.input(field);
    byId(`${field}-error`).textContent = text;
    if (text) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  private dirty(): boolean {
    const saved = this.saved;
    if (!saved) return true;
    const v = this.values();
    return (
      v.apiKey !== undefined ||
      v.baseUrl.replace(/\/+$/, '') !== saved.baseUrl ||
      v.accessKey !== saved.accessKey ||
      v.supportServerClick !== (saved.supportServerClick || 'ask') ||
      JSON.stringify(v.guard) !== JSON.stringify(guardForm(saved.guard)) ||
      v.alerts?.hours !== String(saved.alerts.hours) ||
      v.alerts?.emailsPerDay !== String(saved.alerts.emailsPerDay) ||
      (v.uploadBaseUrl || v.baseUrl).replace(/\/+$/, '') !== saved.uploadBaseUrl
    );
  }

  /** Marks the guard's fields the server would refuse; true when they are fine. */
  private checkGuard(): boolean {
    // The form sends every field: the stored values readGuard falls back on do not matter.
    const read = readGuard(this.values().guard ?? {}, DEFAULT_GUARD);
    const problems = read.ok ? {} : read.problems;
    for (const [field, input, label] of [
      ['factor', this.factor, 'The factor'],
      ['cutFactor', this.cutFactor, 'The cut factor'],
      ['ceilings', this.ceilings, 'Ceilings'],
    ] as const) {
      const problem = problems[field];
      byId(`${input.id}-error`).textContent = problem
        ? `${label} ${problem}.`
        : '';
      if (problem) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    return read.ok;
  }

  /** Saves when the form holds anything new; false when the form is not valid or saving failed. */
  private async save(): Promise<boolean> {
    const errors = this.check(true);
    if (!this.checkGuard()) {
      say(this.message, 'Not saved: correct the marked fields.', 'error');
      return false;
    }
    const first = FIELDS.find(f => errors[f]);
    if (first) {
      say(this.message, 'Not saved: correct the marked fields.', 'error');
      this.input(first).focus();
      return false;
    }
    say(this.message, 'Saving…');
    try {
      const view = await this.busy.during(() =>
        server.saveSettings(this.values()),
      );
      this.show(view);
      say(this.message, 'Saved.', 'ok');
      this.onSaved(view);
      return true;
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
      return false;
    }
  }

  /** Tests the saved settings, saving the form first when it holds changes. */
  private async test(): Promise<void> {
    if (this.dirty() && !(await this.save())) return;
    say(this.message, 'Testing the connection…');
    try {
      const check = await this.busy.during(() => server.testConnection());
      say(this.message, check.message, check.ok ? 'ok' : 'error');
      const field = check.problem ? TEST_FIELD[check.problem] : undefined;
      if (field) this.input(field).setAttribute('aria-invalid', 'true');
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
    }
  }
}

/** The guard as the form holds it, to tell whether the user changed it. */
function guardForm(guard: GuardSettings) {
  return {
    holding: guard.holding,
    factor: String(guard.factor),
    cutFactor: String(guard.cutFactor),
    ceilings: ceilingsText(guard.ceilings),
  };
}
