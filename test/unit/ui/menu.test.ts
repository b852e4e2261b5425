import {addonMenu} from '../../../src/jobs/host/menu-entries';
import type {MenuEntry} from '../../../src/platform/ports';

function captions(entries: readonly MenuEntry[]): unknown[] {
  return entries.map(e =>
    e === 'separator'
      ? '---'
      : 'items' in e
        ? {[e.caption]: e.items.map(i => `${i.caption} -> ${i.functionName}`)}
        : `${e.caption} -> ${e.functionName}`,
  );
}

describe('the add-on menu', () => {
  it('groups every job of DESIGN 4.2 into submenus, previews before pushes', () => {
    expect(captions(addonMenu())).toEqual([
      'Open sidebar -> showSidebar',
      '---',
      {
        Refresh: [
          'Refresh campaigns -> menuRefreshCampaigns',
          'Refresh offers and budgets -> menuRefreshOffers',
          'Refresh creative materials -> menuRefreshCreatives',
          'List creative ads… -> menuListCreativeAds',
          'Refresh everything -> menuRefreshAll',
        ],
      },
      {
        Push: [
          'Push budgets (preview) -> menuPreviewPushBudgets',
          'Push budgets -> menuPushBudgets',
          'Push campaigns (preview) -> menuPreviewPushCampaigns',
          'Push campaigns -> menuPushCampaigns',
          'Push tracking links (preview) -> menuPreviewPushTracking',
          'Push tracking links -> menuPushTracking',
          'Apply due changes now -> menuApplyScheduledChanges',
          'Push later… -> showPushLater',
        ],
      },
      {
        Create: [
          'Choose files… -> showFilePicker',
          'Upload creative materials (preview) -> menuPreviewUploadCreatives',
          'Upload creative materials -> menuUploadCreatives',
          'Clone selected offers… -> showCloneDialog',
          'Create new offers (preview) -> menuPreviewCreateOffers',
          'Create new offers -> menuCreateOffers',
        ],
      },
      {
        'Sub-accounts': [
          'Refresh sub-accounts -> menuRefreshSubAccounts',
          'Create sub-accounts (preview) -> menuPreviewCreateSubAccounts',
          'Create sub-accounts -> menuCreateSubAccounts',
        ],
      },
      {
        Schedule: [
          'Choose a scheduled refresh… -> showScheduleChoice',
          'Turn scheduled refresh off -> menuScheduleOff',
        ],
      },
    ]);
  });
});
