/**
 * The job buttons, built from the catalog; while a job runs, its progress ("n of m rows")
 * polled from the server; afterwards its summary, with the rows that need attention listed
 * and each one a button that selects the row in its sheet.
 */
import {JobSummary, RowProblem, needsAttention} from '../../jobs/run';
import type {ScheduledRun} from '../../jobs/settings-store';
import type {LastJob} from '../../jobs/host/sidebar-state';
import type {JobProgress} from '../../platform/ports';
import {GROUPS} from '../../jobs/catalog';
import {
  CHECKED_JOBS as JOBS,
  CheckedJob as JobSpec,
  checkedJob as jobSpec,
} from '../entry-points';
import {counted, noun} from '../../text/wording';
import {Busy, Tone, byId, element, say} from './dom';
import {OWN_JOB_POLL_MS, pollAfterEach} from './poll-plan';
import {server} from './server';

export function summaryTone(summary: JobSummary): Tone {
  if (summary.error > 0) return 'error';
  return needsAttention(summary) ? 'warn' : 'ok';
}

/** Rows of one sheet that need attention for one reason (status and message alike). */
interface ReasonGroup {
  reason: string;
  rows: RowProblem[];
}

/**
 * The listed rows by sheet, then by reason, in the order they were listed: fifty rows refused
 * for one reason read as one line with fifty row buttons, not fifty lines.
 */
export function groupProblems(
  problems: readonly RowProblem[],
): Map<string, ReasonGroup[]> {
  const sheets = new Map<string, ReasonGroup[]>();
  for (const p of problems) {
    const groups = sheets.get(p.sheet) ?? [];
    sheets.set(p.sheet, groups);
    const reason = `${p.status}: ${p.message}`;
    const group = groups.find(g => g.reason === reason);
    if (group) group.rows.push(p);
    else groups.push({reason, rows: [p]});
  }
  return sheets;
}

export class JobsPanel {
  private readonly run = byId('run');
  private readonly runTitle = byId('run-title');
  private readonly bar = byId<HTMLProgressElement>('run-progress');
  private readonly count = byId('run-count');
  private readonly result = byId('result');
  private readonly resultMessage = byId('result-message');
  private readonly resultHint = byId('result-hint');
  private readonly problems = byId<HTMLUListElement>('result-problems');
  private readonly accounts = byId<HTMLUListElement>('result-accounts');
  private readonly change = byId('result-change');
  private readonly bodies = byId<HTMLDetailsElement>('result-bodies');
  private readonly bodiesTitle = byId('result-bodies-title');
  private readonly bodiesJson = byId('result-bodies-json');
  /** The run box shows a job another execution runs (the menu, the schedule). */
  private outside = false;
  /** The sidebar itself runs a job: no other execution's result is shown over its own. */
  private ownJob = false;

  constructor(
    private readonly busy: Busy,
    /**
     * Told of every job that ended with a summary (the History list may have grown): `job`,
     * the catalog's entry point, or undefined for another call (a revert).
     */
    private readonly finished: (job: string | undefined) => void = () => {},
  ) {
    const container = byId('jobs');
    for (const group of GROUPS) {
      const box = element('div', '', {class: 'job-group', role: 'group'});
      const heading = element('h3', group, {id: `group-${group}`});
      box.setAttribute('aria-labelledby', heading.id);
      box.append(
        heading,
        ...JOBS.filter(j => j.group === group).map(j => this.jobRow(j)),
      );
      container.append(box);
    }
  }

  private jobRow(job: JobSpec): HTMLElement {
    const form = job.kind === 'creativeAds';
    const row = element('div', '', {class: form ? 'job job-form' : 'job'});
    row.append(element('span', job.title, {class: 'job-name'}));
    const button = (
      text: string,
      label: string,
      start: () => Promise<JobSummary>,
      title: string,
    ) => {
      const b = element('button', text, {
        type: 'button',
        'aria-label': label,
        'data-job': job.fn,
      });
      b.addEventListener('click', () => void this.start(job.fn, title, start));
      this.busy.add(b);
      return b;
    };
    if (job.kind === 'plain') {
      row.append(button('Run', job.title, () => server[job.fn](), job.title));
    } else if (job.kind === 'preview') {
      const preview = `${job.title} (preview)`;
      row.append(
        button(
          'Preview',
          `Preview: ${job.title}`,
          () => server[job.fn]({dryRun: true}),
          preview,
        ),
        button(
          job.group === 'Push' ? 'Push' : 'Run',
          job.title,
          () => server[job.fn]({dryRun: false}),
          job.title,
        ),
      );
    } else {
      const ids = element('input', '', {
        id: `${job.fn}-ids`,
        autocomplete: 'off',
        inputmode: 'numeric',
      });
      const pkg = element('input', '', {
        id: `${job.fn}-package`,
        autocomplete: 'off',
        spellcheck: 'false',
      });
      this.busy.add(ids, pkg);
      row.append(
        element('label', 'Creative ad ids (comma-separated)', {for: ids.id}),
        ids,
        element('label', 'and a package name to narrow them (optional)', {
          for: pkg.id,
        }),
        pkg,
        button(
          'List',
          job.title,
          () => {
            const adIds = ids.value.trim();
            const packageName = pkg.value.trim();
            if (!adIds) {
              return Promise.reject(
                new Error(
                  'Give creative ad ids first: the API lists creative ads by id (a package name only narrows them).',
                ),
              );
            }
            return server[job.fn](packageName ? {adIds, packageName} : {adIds});
          },
          job.title,
        ),
      );
    }
    return row;
  }

  /** A server call outside the catalog (a revert), shown as a job is. */
  runAction(title: string, call: () => Promise<JobSummary>): Promise<void> {
    return this.start(undefined, title, call);
  }

  /** `fn`: the entry point whose progress reports to show while it runs. */
  private async start(
    fn: string | undefined,
    title: string,
    call: () => Promise<JobSummary>,
  ): Promise<void> {
    if (this.busy.running) return;
    this.outside = false;
    this.result.hidden = true;
    this.run.hidden = false;
    this.runTitle.textContent = `${title}…`;
    this.bar.removeAttribute('value');
    this.count.textContent = 'Starting…';
    this.run.scrollIntoView({block: 'nearest'});
    // Asked again only once answered: a slow answer never piles up questions.
    const stopPolling = pollAfterEach(
      () => this.poll(fn),
      () => OWN_JOB_POLL_MS,
    );
    this.ownJob = true;
    try {
      const summary = await this.busy.during(call);
      this.showSummary(title, summary);
      this.finished(fn);
    } catch (e) {
      this.showFailure(title, (e as Error).message);
      this.finished(fn);
    } finally {
      this.ownJob = false;
      stopPolling();
      this.run.hidden = true;
      this.result.scrollIntoView({block: 'nearest'});
    }
  }

  /** Shows the running job's own report; a finished one left from an earlier run is not it. */
  private async poll(fn: string | undefined): Promise<void> {
    let progress;
    try {
      progress = await server.getProgress();
    } catch {
      return; // the next poll asks again; the job's own answer is what counts
    }
    if (this.run.hidden || !progress || progress.job !== fn) return;
    this.showCount(progress);
  }

  private showCount(progress: JobProgress): void {
    if (progress.total > 0 && progress.done >= progress.total) return;
    if (progress.total > 0) {
      this.bar.max = progress.total;
      this.bar.value = progress.done;
      this.count.textContent = `${progress.done} of ${counted(progress.total, 'row')}`;
    }
  }

  /**
   * A job another execution runs (the menu, the schedule, another editor): its name and
   * rows done while it runs; gone when it ends, its result following at the next change. The
   * sidebar's own job shows its own progress instead.
   */
  showRunning(progress: JobProgress | null): void {
    if (this.busy.running) return;
    if (!progress) {
      if (this.outside) this.run.hidden = true;
      this.outside = false;
      return;
    }
    const title = jobSpec(progress.job)?.title ?? progress.job;
    // An earlier result is not this job's: its own follows when it ends.
    if (!this.outside) this.result.hidden = true;
    this.outside = true;
    this.run.hidden = false;
    this.runTitle.textContent = `${title}… (started elsewhere: the menu, the schedule or another editor)`;
    this.showCount(progress);
  }

  /** A scheduled run that ended while the sidebar was open. */
  showScheduledRun(run: ScheduledRun, tone: Tone): void {
    // While the sidebar runs a job, its own result is the one to show when it ends.
    if (this.ownJob) return;
    this.result.hidden = false;
    const email = run.email ? ` ${run.email}` : '';
    say(this.resultMessage, `Scheduled run: ${run.message}${email}`, tone);
    this.resultHint.textContent = '';
    this.problems.replaceChildren();
    this.accounts.replaceChildren();
    this.showSent(undefined);
  }

  /**
   * A job the user ran from the menu while the sidebar was open, or the last job run before
   * it opened (from the menu or a sidebar, one reloaded while it ran included).
   */
  showMenuRun(job: LastJob): void {
    if (this.ownJob) return;
    const title = `${job.title} (from ${job.from === 'sidebar' ? 'the sidebar' : 'the menu'})`;
    if (job.summary) this.showSummary(title, job.summary);
    else this.showFailure(title, job.failure ?? '');
  }

  private showSummary(title: string, summary: JobSummary): void {
    this.result.hidden = false;
    say(
      this.resultMessage,
      `${title}: ${summary.message}`,
      summaryTone(summary),
    );
    this.problems.replaceChildren(
      ...[...groupProblems(summary.problems)].map(([sheet, groups]) =>
        this.sheetGroup(sheet, groups),
      ),
    );
    // A run for several accounts: a line each, the ones left out first.
    this.accounts.replaceChildren(
      ...[...(summary.accounts ?? [])]
        .sort((a, b) => Number(!!b.error) - Number(!!a.error))
        .map(line =>
          element(
            'li',
            line.error
              ? `${line.account}: not refreshed, its rows as they were: ${line.error}`
              : `${line.account}: ${counted(line.records, 'record')}`,
            line.error ? {class: 'failed'} : {},
          ),
        ),
    );
    this.showSent(summary);
    const flagged = summary.invalid + summary.error;
    this.resultHint.textContent =
      summary.problems.length > 0 && summary.problems.length < flagged
        ? `The first ${summary.problems.length} of ${counted(flagged, 'row')} are listed; the others show INVALID or ERROR in sync_status.`
        : summary.problems.length > 0
          ? 'Click a row to select it in its sheet.'
          : '';
  }

  /**
   * What the run sent or would send: the change id History and Revert know a run by, and a
   * preview's request bodies, folded (a preview run from the menu comes without them: they
   * do not fit what the sidebar is told).
   */
  private showSent(summary: JobSummary | undefined): void {
    const changeId = summary?.changeId;
    this.change.hidden = !changeId;
    this.change.textContent = changeId
      ? `Change ${changeId}: its rows are in the History sheet, and History below can revert it.`
      : '';
    const bodies = summary?.wouldSend ?? [];
    this.bodies.hidden = bodies.length === 0;
    this.bodies.open = false;
    this.bodiesTitle.textContent = `${counted(bodies.length, noun('request body', 'request bodies'))} known before sending`;
    this.bodiesJson.textContent = bodies
      .map(b => JSON.stringify(b, null, 2))
      .join('\n\n');
  }

  /** One sheet's rows, collapsible: its reasons, each with a button per row. */
  private sheetGroup(sheet: string, groups: ReasonGroup[]): HTMLElement {
    const rows = groups.reduce((n, g) => n + g.rows.length, 0);
    const details = element('details', '', {open: ''});
    details.append(
      element('summary', `${sheet}: ${counted(rows, 'row')}`, {
        class: 'problem-sheet',
      }),
    );
    for (const group of groups) {
      const block = element('div', '', {class: 'problem-reason'});
      block.append(element('p', group.reason));
      for (const p of group.rows) {
        const b = element('button', `row ${p.row}`, {
          type: 'button',
          'aria-label': `Select ${p.sheet} row ${p.row}`,
          title: `Select ${p.sheet} row ${p.row}`,
        });
        b.addEventListener('click', () => void this.select(p));
        block.append(b);
      }
      details.append(block);
    }
    const item = element('li');
    item.append(details);
    return item;
  }

  private showFailure(title: string, text: string): void {
    this.result.hidden = false;
    say(this.resultMessage, `${title}: not done. ${text}`, 'error');
    this.resultHint.textContent = '';
    this.problems.replaceChildren();
    this.accounts.replaceChildren();
    this.showSent(undefined);
  }

  private async select(p: RowProblem): Promise<void> {
    try {
      await server.selectRow(p.sheet, p.row);
      this.resultHint.textContent = `${p.sheet} row ${p.row} is selected.`;
    } catch (e) {
      this.resultHint.textContent = (e as Error).message;
    }
  }
}
