import {ConfigError} from '../../../src/api/errors';
import {
  creativeAdsQuery,
  openMenu,
  runAction,
  runCreativeAdsFromMenu,
  runFromMenu,
} from '../../../src/jobs/host/menu';
import {LockBusyError} from '../../../src/jobs/run';
import type {Platform} from '../../../src/platform/ports';
import {ScriptedTransport, fakePlatform} from '../../support/fakes';
import {MemoryWorkbook} from '../../support/workbook';
import {RecordingUi, summary} from '../ui/fakes';

/** A platform whose every part but the UI throws when touched. */
function uiOnlyPlatform(ui: RecordingUi, touched: string[]): Platform {
  return new Proxy({ui} as unknown as Platform, {
    get(_target, key: string) {
      if (key === 'ui') return ui;
      touched.push(key);
      throw new Error(`${key} touched`);
    },
  });
}

/**
 * The run is recorded for the sidebar: the user's cache and properties are touched. Each flush
 * of the spreadsheet goes into `flushed` as the number of things shown until then.
 */
function platform(ui: RecordingUi, flushed: number[] = []) {
  const workbook = new MemoryWorkbook();
  workbook.flush = () => {
    flushed.push(ui.shown.length);
  };
  return fakePlatform(
    new ScriptedTransport(() => {
      throw new Error('no request expected');
    }),
    {ui, workbook: () => workbook},
  );
}

describe('onOpen', () => {
  it('builds the add-on menu and touches no storage, as AuthMode.NONE requires', () => {
    const ui = new RecordingUi();
    const touched: string[] = [];
    openMenu(uiOnlyPlatform(ui, touched));
    expect(touched).toEqual([]);
    expect(ui.menu?.[0]).toEqual({
      caption: 'Open sidebar',
      functionName: 'showSidebar',
    });
  });
});

describe('a job run from the menu', () => {
  it('ends with a toast of the summary when every row went through', () => {
    const ui = new RecordingUi();
    runFromMenu(platform(ui), 'pushBudgets', () =>
      summary({
        ok: 3,
        message: '3 OK, 0 invalid, 0 error, 0 unchanged (main account).',
      }),
    );
    expect(ui.shown).toEqual([
      {
        kind: 'toast',
        title: 'Push budgets',
        message: '3 OK, 0 invalid, 0 error, 0 unchanged (main account).',
      },
    ]);
  });

  it('lists the rows that need attention in an alert, naming their sheet, once their statuses are sent', () => {
    const ui = new RecordingUi();
    const flushed: number[] = [];
    const problems = Array.from({length: 10}, (_, i) => ({
      sheet: 'Budgets',
      row: i + 2,
      status: 'INVALID' as const,
      message: 'daily_cap: must be at least 50',
    }));
    runFromMenu(
      platform(ui, flushed),
      'pushBudgets',
      () =>
        summary({
          ok: 1,
          invalid: 10,
          dryRun: true,
          message:
            'Preview (nothing sent): 1 OK, 10 invalid, 0 error, 0 unchanged (main account). See sync_message in Budgets.',
          problems,
        }),
      true,
    );
    expect(ui.shown).toEqual([
      {
        kind: 'alert',
        title: 'Push budgets (preview)',
        message: [
          'Preview (nothing sent): 1 OK, 10 invalid, 0 error, 0 unchanged (main account). See sync_message in Budgets.',
          '',
          ...problems
            .slice(0, 8)
            .map(
              p =>
                `Budgets row ${p.row}: INVALID: daily_cap: must be at least 50`,
            ),
          '…and 2 more: see sync_status and sync_message in Budgets.',
        ].join('\n'),
      },
    ]);
    // Sent before the alert opened, which holds the execution: the rows agree with it.
    expect(flushed).toEqual([0]);
  });

  it('says in an alert why a job could not run, without a stack trace', () => {
    const ui = new RecordingUi();
    runFromMenu(platform(ui), 'refreshOffers', () => {
      throw new LockBusyError();
    });
    runFromMenu(platform(ui), 'refreshOffers', () => {
      throw new ConfigError('Offer Desk is not connected yet.');
    });
    runFromMenu(platform(ui), 'refreshOffers', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    expect(ui.shown).toEqual([
      {
        kind: 'alert',
        title: 'Refresh offers and budgets: not done',
        message:
          'Another Offer Desk job is running in this spreadsheet: try again when it has finished.',
      },
      {
        kind: 'alert',
        title: 'Refresh offers and budgets: not done',
        message: 'Offer Desk is not connected yet.',
      },
      {
        kind: 'alert',
        title: 'Refresh offers and budgets: not done',
        message:
          "Offer Desk stopped unexpectedly: Cannot read properties of undefined (reading 'x'). Rows already written keep their status; running the job again continues.",
      },
    ]);
    expect(JSON.stringify(ui.shown)).not.toMatch(/ at .*\(/);
  });

  it('reports an action as a toast, or its failure as an alert', () => {
    const ui = new RecordingUi();
    runAction(platform(ui), 'Scheduled refresh', () => 'It is off.');
    runAction(platform(ui), 'Scheduled refresh', () => {
      throw new ConfigError('No.');
    });
    expect(ui.shown).toEqual([
      {kind: 'toast', title: 'Scheduled refresh', message: 'It is off.'},
      {kind: 'alert', title: 'Scheduled refresh: not done', message: 'No.'},
    ]);
  });
});

describe('the creative-ad list from the menu', () => {
  it('reads ids or a package name from what was typed', () => {
    expect(creativeAdsQuery(' 101, 102 ,103 ')).toEqual({adIds: '101,102,103'});
    expect(creativeAdsQuery('com.example.game')).toEqual({
      packageName: 'com.example.game',
    });
    expect(creativeAdsQuery('  ')).toBeUndefined();
    expect(creativeAdsQuery(' , ')).toBeUndefined();
  });

  it('asks first, runs with the answer, and does nothing when cancelled', () => {
    const ui = new RecordingUi();
    const asked: unknown[] = [];
    const run = (q: unknown) => {
      asked.push(q);
      return summary({ok: 2, message: '2 OK'});
    };
    ui.answers.push('7,8', null, '');
    const menu = platform(ui);
    runCreativeAdsFromMenu(menu, 'listCreativeAds', run);
    runCreativeAdsFromMenu(menu, 'listCreativeAds', run);
    runCreativeAdsFromMenu(menu, 'listCreativeAds', run);
    expect(asked).toEqual([{adIds: '7,8'}]);
    expect(ui.shown.filter(s => s.kind !== 'prompt')).toEqual([
      {kind: 'toast', title: 'List creative ads', message: '2 OK'},
      {
        kind: 'alert',
        title: 'List creative ads: not done',
        message: 'Nothing was typed: give creative ad ids.',
      },
    ]);
  });
});
