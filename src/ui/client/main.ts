/** The sidebar: connection settings, acting account, jobs and the scheduled refresh. */
import {AccountPicker} from './accounts';
import {Busy, byId, say} from './dom';
import {JobsPanel} from './jobs';
import {SchedulePanel} from './schedule';
import {server} from './server';
import {SettingsForm} from './settings-form';

function start(): void {
  const busy = new Busy();
  const accounts = new AccountPicker(busy);
  const settings = new SettingsForm(busy, () => void accounts.load());
  new JobsPanel(busy);
  const schedule = new SchedulePanel(busy);
  server
    .getSettings()
    .then(view => settings.show(view))
    .catch((e: Error) => say(byId('settings-message'), e.message, 'error'));
  void accounts.load();
  void schedule.load();
}

start();
