/** The sidebar: connection settings, acting account, jobs, Push later, History and the scheduled refresh. */
import {AccountPicker} from './accounts';
import {AlertsCount} from './alerts';
import {Busy, byId, say} from './dom';
import {wireCloneDialog, wireFilePicker} from './file-picker';
import {HistoryPanel} from './history';
import {JobsPanel} from './jobs';
import {LaterPanel} from './later';
import {OUTCOME_TONE, SchedulePanel} from './schedule';
import {server} from './server';
import {SettingsForm} from './settings-form';
import {StateWatch} from './watch';

function start(): void {
  const busy = new Busy();
  const accounts = new AccountPicker(busy);
  const settings = new SettingsForm(busy, () => void accounts.load());
  const alerts = new AlertsCount();
  const jobs = new JobsPanel(busy, job => {
    if (job) watch.ownJobEnded();
    void history.refresh();
    void later.refresh();
    void alerts.load();
  });
  const history = new HistoryPanel(busy, (title, call) =>
    jobs.runAction(title, call),
  );
  const later = new LaterPanel(busy, (title, call) =>
    jobs.runAction(title, call),
  );
  const schedule = new SchedulePanel(busy, run =>
    jobs.showScheduledRun(run, OUTCOME_TONE[run.outcome]),
  );
  const watch = new StateWatch(
    busy,
    (state, newJob) => {
      if (newJob && state.lastJob) {
        jobs.showMenuRun(state.lastJob);
        void history.refresh();
      }
      void schedule.load();
      // A refresh from the menu or the schedule may have found alerts.
      void alerts.load();
      // A job from the menu may have created or looked up sub-accounts.
      void accounts.load();
    },
    running => jobs.showRunning(running),
    last => jobs.showMenuRun(last),
    () => void alerts.load(),
  );
  server
    .getSettings()
    .then(view => {
      settings.show(view);
      history.showLimit(view.historyLimit);
    })
    .catch((e: Error) => say(byId('settings-message'), e.message, 'error'));
  void accounts.load();
  void schedule.load();
  wireFilePicker();
  wireCloneDialog();
  void alerts.load();
  watch.start();
}

/**
 * A menu item that opens the sidebar at a form (Push later…) names it in a `<meta name="open-at">`
 * after the page: read once the page is parsed, so the form shows, first field focused.
 */
function openAt(): void {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="open-at"]');
  const target = meta ? document.getElementById(meta.content) : null;
  if (!target) return;
  const section = target.closest('section') ?? target;
  section.scrollIntoView({block: 'start'});
  section
    .querySelector<HTMLElement>('input, select, button')
    ?.focus({preventScroll: true});
}

start();
if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', openAt);
else openAt();
