import {alertsEmail} from '../../../src/jobs/refresh/offer-watch';
import {SettingsStore} from '../../../src/jobs/settings-store';
import {ScriptedTransport, fakePlatform, ok} from '../../support/fakes';
import {MemoryWorkbook} from '../../support/workbook';

const LINES = [
  'offer 7 (spring_sale): status left RUNNING (RUNNING → STOPPED), reason INSUFFICIENT_BALANCE',
];

function setup(quota = 100) {
  const sent: Array<{to: string; subject: string; body: string}> = [];
  const workbook = new MemoryWorkbook();
  const platform = fakePlatform(new ScriptedTransport(() => ok({})), {
    workbook: () => workbook,
    mail: {
      remainingDailyQuota: () => quota - sent.length,
      send: (to, subject, body) => void sent.push({to, subject, body}),
    },
  });
  return {platform, store: new SettingsStore(platform.userProperties), sent};
}

describe('the alert digest of a scheduled refresh', () => {
  it('sends one email naming each alert and the spreadsheet, and nothing without alerts', () => {
    const {platform, store, sent} = setup();
    expect(alertsEmail(platform, store, [])).toBeUndefined();
    expect(alertsEmail(platform, store, LINES)).toEqual({
      text: 'Emailed 1 new alert to user@example.com.',
      done: true,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toContain(`• ${LINES[0]}`);
    expect(sent[0].body).toContain('Spreadsheet (sheet Alerts): ');
  });

  it('sends at most the number a day set, and never past the quota', () => {
    const {platform, store, sent} = setup();
    store.setAlertSettings({hours: 6, emailsPerDay: 2});
    alertsEmail(platform, store, LINES);
    alertsEmail(platform, store, LINES);
    expect(alertsEmail(platform, store, LINES)).toEqual({
      text: 'No alert email: 2 were already sent today (at most 2 a day, in the sidebar settings). The next scheduled run that may email sends them.',
      done: false,
    });
    expect(sent).toHaveLength(2);
    platform.clock.ms += 24 * 3600_000;
    expect(alertsEmail(platform, store, LINES)?.text).toMatch(/^Emailed/);

    const spent = setup(0);
    expect(alertsEmail(spent.platform, spent.store, LINES)).toEqual({
      text: 'No alert email: the daily email quota of this Google account is used up.',
      done: false,
    });
  });
});
