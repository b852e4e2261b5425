/**
 * The sidebar's History: the last job runs that sent something, newest first, each with what
 * it changed and, where a push sent it, a Revert button. Revert only writes the before values
 * into the sheets as unpushed edits; its result shows where job results show, with the
 * CONFLICT rows to select.
 */
import type {ChangeRun, HistoryView} from '../../jobs/history/history-list';
import type {JobSummary} from '../../jobs/run';
import {jobSpec} from '../../jobs/catalog';
import {counted} from '../../text/wording';
import {Busy, byId, element, say} from './dom';
import {dateTime} from './schedule';
import {server} from './server';

/** Runs a server call as a job of the sidebar: progress while it runs, then its result. */
export type RunAction = (
  title: string,
  call: () => Promise<JobSummary>,
) => Promise<void>;

export class HistoryPanel {
  private readonly list = byId<HTMLUListElement>('history-runs');
  private readonly message = byId('history-message');
  private readonly load = byId<HTMLButtonElement>('history-load');
  private readonly limit = byId<HTMLInputElement>('history-limit');
  private readonly saveLimit = byId<HTMLButtonElement>('history-limit-save');
  private shown = false;
  /** The Revert buttons of the list shown: replaced with it. */
  private reverts: HTMLButtonElement[] = [];

  constructor(
    private readonly busy: Busy,
    private readonly runAction: RunAction,
  ) {
    this.busy.add(this.load, this.limit, this.saveLimit);
    this.load.addEventListener('click', () => void this.show());
    this.saveLimit.addEventListener('click', () => void this.setLimit());
  }

  private async setLimit(): Promise<void> {
    try {
      const rows = await this.busy.during(() =>
        server.setHistoryLimit(this.limit.value.trim()),
      );
      this.limit.value = String(rows);
      say(
        this.message,
        `History keeps ${counted(rows, 'row')} from the next run on.`,
        'ok',
      );
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
    }
  }

  /** Fills the History size box, unless the user is typing into it. */
  showLimit(rows: number): void {
    if (document.activeElement !== this.limit) this.limit.value = String(rows);
  }

  /** Lists the runs again if the list is open (after a job that may have added one). */
  async refresh(): Promise<void> {
    if (this.shown) await this.show();
  }

  async show(): Promise<void> {
    let view: HistoryView;
    try {
      view = await this.busy.during(() => server.listChanges());
    } catch (e) {
      say(this.message, (e as Error).message, 'error');
      return;
    }
    this.shown = true;
    this.load.textContent = 'Show again';
    this.showLimit(view.limit);
    say(
      this.message,
      view.runs.length === 0
        ? 'Nothing sent yet: the History sheet is empty.'
        : view.runs.length === 1
          ? 'The last run that sent something or found changes on the server.'
          : `The last ${view.runs.length} runs that sent something or found changes on the server, newest first.`,
    );
    this.busy.forget(...this.reverts);
    this.reverts = [];
    this.list.replaceChildren(
      ...view.runs.map(r => this.item(r, view.timeZone)),
    );
  }

  private item(run: ChangeRun, timeZone: string): HTMLElement {
    const item = element('li', '', {class: 'history-run'});
    const when = Number.isFinite(run.at) ? dateTime(run.at, timeZone) : '';
    const who = [run.account, run.user].filter(Boolean).join(', ');
    const seen = run.server;
    const fields = run.lines.length + run.more;
    item.append(
      element(
        'p',
        seen
          ? `Changed on the server since ${seen.since || 'the last refresh'}`
          : `${jobSpec(run.job)?.title ?? run.job}`,
        {class: 'history-title'},
      ),
      element(
        'p',
        seen ? `${when} · seen by the refresh of ${who}` : `${when} · ${who}`,
        {class: 'hint'},
      ),
      element(
        'p',
        [
          counted(run.records, 'record'),
          seen ? counted(fields, 'field') : '',
          run.ok > 0 ? `${run.ok} OK` : '',
          run.error > 0 ? `${run.error} ERROR` : '',
          run.unknown > 0 ? `${run.unknown} UNKNOWN` : '',
        ]
          .filter(Boolean)
          .join(' · '),
      ),
    );
    const lines = element('ul', '', {class: 'history-lines'});
    lines.append(...run.lines.map(line => element('li', line)));
    if (run.more > 0) lines.append(element('li', `and ${run.more} more`));
    item.append(lines);
    if (run.revertible) {
      const revert = element('button', 'Revert', {
        type: 'button',
        'aria-label': `Revert change ${run.changeId}`,
        'data-change': run.changeId,
      });
      this.busy.add(revert);
      this.reverts.push(revert);
      revert.addEventListener(
        'click',
        () =>
          void this.runAction(`Revert ${run.changeId}`, () =>
            server.revertChange(run.changeId),
          ),
      );
      item.append(revert);
    } else {
      item.append(
        element(
          'p',
          seen
            ? 'Changed outside Offer Desk (the platform, the account manager, another tool): nothing of Offer Desk to revert.'
            : 'Created or uploaded: the API cannot undo it, so there is nothing to revert.',
          {class: 'hint'},
        ),
      );
    }
    item.append(element('p', `Change ${run.changeId}`, {class: 'hint'}));
    return item;
  }
}
