/**
 * The account the jobs act as: every account (the main account and each of its sub-accounts,
 * each record signed by its own), the main account, or one of its sub-accounts. The server
 * looks a sub-account's keys up when it is chosen, so a wrong name is said at once.
 */
import type {ActingAccounts} from '../../jobs/host/sidebar';
import {Busy, byId, element, say} from './dom';
import {server} from './server';

const MAIN = '';
/** The value setActingAccount takes for every account (DESIGN 4.4). */
const EVERY = '*';

export class AccountPicker {
  private readonly select = byId<HTMLSelectElement>('account');
  private readonly name = byId<HTMLInputElement>('account-name');
  private readonly message = byId('account-message');
  private readonly shown = byId<HTMLSelectElement>('show-account');
  private readonly shownMessage = byId('show-account-message');
  private current = MAIN;
  /** The account whose rows the sheets were last filtered to. */
  private showing = EVERY;

  private readonly newName = byId<HTMLInputElement>('new-sub-name');
  private readonly newPassword = byId<HTMLInputElement>('new-sub-password');
  private readonly newMessage = byId('new-sub-message');

  constructor(private readonly busy: Busy) {
    const use = byId<HTMLButtonElement>('account-use');
    const create = byId<HTMLButtonElement>('new-sub-create');
    const show = byId<HTMLButtonElement>('show-account-apply');
    show.addEventListener('click', () => void this.showRows());
    busy.add(
      this.select,
      this.name,
      use,
      this.shown,
      show,
      this.newName,
      this.newPassword,
      create,
    );
    byId<HTMLFormElement>('new-sub-form').addEventListener('submit', event => {
      event.preventDefault();
      void this.create();
    });
    this.select.addEventListener(
      'change',
      () => void this.choose(this.select.value),
    );
    use.addEventListener(
      'click',
      () => void this.choose(this.name.value.trim()),
    );
    this.name.addEventListener('keydown', event => {
      if (event.key === 'Enter') void this.choose(this.name.value.trim());
    });
  }

  async load(): Promise<void> {
    try {
      this.show(await server.listActingAccounts());
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
    }
  }

  show(accounts: ActingAccounts): void {
    this.current = accounts.current;
    // A choice made under Show rows of and not applied yet survives a reload of the list.
    const chosen =
      this.shown.options.length > 0 ? this.shown.value : this.showing;
    for (const select of [this.select, this.shown]) {
      select.replaceChildren(
        element('option', 'Every account', {value: EVERY}),
        element('option', 'Main account', {value: MAIN}),
        ...accounts.subAccounts.map(n =>
          element('option', `Sub-account ${n}`, {value: n}),
        ),
      );
    }
    this.select.value = accounts.current;
    this.shown.value = chosen;
    if (this.shown.value !== chosen) this.shown.value = this.showing;
  }

  /** Filters the record sheets to the rows of the account chosen under "Show rows of". */
  private async showRows(): Promise<void> {
    try {
      const result = await this.busy.during(() =>
        server.showAccount(this.shown.value),
      );
      this.showing = this.shown.value;
      say(this.shownMessage, result.message, 'ok');
    } catch (e) {
      say(this.shownMessage, (e as Error).message, 'error');
    }
  }

  /** Creates one sub-account; the password field is emptied whatever the outcome. */
  private async create(): Promise<void> {
    const name = this.newName.value.trim();
    const password = this.newPassword.value;
    this.newPassword.value = '';
    say(this.newMessage, `Creating sub-account ${name}…`);
    try {
      const summary = await this.busy.during(() =>
        server.createSubAccount(name, password),
      );
      const problem = summary.problems[0];
      if (summary.ok > 0) {
        this.newName.value = '';
        say(
          this.newMessage,
          `Created sub-account ${name}: Act as offers it, and its row in Sub-accounts has its access_key.`,
          'ok',
        );
        await this.load();
      } else {
        // The row's message says whether it was created: after a lost answer whose look-up
        // failed too, the sub-account may exist, so "Not created" would say more than is known.
        say(
          this.newMessage,
          problem
            ? `Sub-account ${name}: ${problem.message}`
            : `Not created: ${summary.message}`,
          'error',
        );
      }
    } catch (e) {
      say(this.newMessage, (e as Error).message, 'error');
    }
  }

  private async choose(name: string): Promise<void> {
    if (name === this.current) return;
    say(
      this.message,
      name === EVERY
        ? 'Switching to every account…'
        : name
          ? `Looking up sub-account ${name}…`
          : 'Switching to the main account…',
    );
    try {
      const view = await this.busy.during(() => server.setActingAccount(name));
      this.name.value = '';
      await this.load();
      say(
        this.message,
        view.actingAccount === EVERY
          ? 'Jobs now act as every account: the main account and each sub-account the Sub-accounts sheet names (or the server lists), each row signed by its own account.'
          : view.actingAccount
            ? `Jobs now act as sub-account ${view.actingAccount}.`
            : 'Jobs now act as the main account.',
        'ok',
      );
    } catch (e) {
      this.select.value = this.current;
      say(this.message, (e as Error).message, 'error');
    }
  }
}
