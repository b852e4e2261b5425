/**
 * Every job the menu and the sidebar offer, in the order they show them. Adding a job to both
 * is one line here; the compiler then asks for its entry point(s) in src/index.ts (the job,
 * `menu` + its name, and `menuPreview` + its name for a job with a preview): src/ui checks
 * each job against them (ui/entry-points.ts, ui/menu.ts).
 *
 * Pure data below the jobs and the sidebar, shared by the server and the browser code.
 */
export type JobGroup = 'Refresh' | 'Push' | 'Create' | 'Sub-accounts';

interface JobBase {
  title: string;
  group: JobGroup;
  /** The sheet it writes; where rows that need attention are. */
  sheet: string;
}

/**
 * A job: `plain` runs with no input, `preview` takes `{dryRun}` (true validates and sends
 * nothing), `creativeAds` takes a creative-ads query.
 */
export type JobSpec =
  | (JobBase & {kind: 'plain'; fn: string; schedulable?: true})
  | (JobBase & {kind: 'preview'; fn: string})
  | (JobBase & {kind: 'creativeAds'; fn: string});

export const JOBS = [
  {
    kind: 'plain',
    fn: 'refreshCampaigns',
    title: 'Refresh campaigns',
    group: 'Refresh',
    sheet: 'Campaigns',
    schedulable: true,
  },
  {
    kind: 'plain',
    fn: 'refreshOffers',
    title: 'Refresh offers and budgets',
    group: 'Refresh',
    sheet: 'Offers',
    schedulable: true,
  },
  {
    kind: 'plain',
    fn: 'refreshCreatives',
    title: 'Refresh creative materials',
    group: 'Refresh',
    sheet: 'Creatives',
    schedulable: true,
  },
  {
    kind: 'creativeAds',
    fn: 'listCreativeAds',
    title: 'List creative ads',
    group: 'Refresh',
    sheet: 'Creative Ads',
  },
  {
    kind: 'plain',
    fn: 'refreshAll',
    title: 'Refresh everything',
    group: 'Refresh',
    sheet: 'Offers',
    schedulable: true,
  },
  {
    kind: 'preview',
    fn: 'pushBudgets',
    title: 'Push budgets',
    group: 'Push',
    sheet: 'Budgets',
  },
  {
    kind: 'preview',
    fn: 'pushCampaigns',
    title: 'Push campaigns',
    group: 'Push',
    sheet: 'Campaigns',
  },
  {
    kind: 'preview',
    fn: 'pushTracking',
    title: 'Push tracking links',
    group: 'Push',
    sheet: 'Offers',
  },
  {
    kind: 'plain',
    fn: 'applyScheduledChanges',
    title: 'Apply due changes now',
    group: 'Push',
    sheet: 'Scheduled',
  },
  {
    kind: 'preview',
    fn: 'uploadCreatives',
    title: 'Upload creative materials',
    group: 'Create',
    sheet: 'Creatives',
  },
  {
    kind: 'preview',
    fn: 'createOffers',
    title: 'Create new offers',
    group: 'Create',
    sheet: 'New Offers',
  },
  {
    kind: 'plain',
    fn: 'refreshSubAccounts',
    title: 'Refresh sub-accounts',
    group: 'Sub-accounts',
    sheet: 'Sub-accounts',
    schedulable: true,
  },
  {
    kind: 'preview',
    fn: 'createSubAccounts',
    title: 'Create sub-accounts',
    group: 'Sub-accounts',
    sheet: 'Sub-accounts',
  },
] as const satisfies readonly JobSpec[];

export type JobName = (typeof JOBS)[number]['fn'];

export const GROUPS: readonly JobGroup[] = [
  'Refresh',
  'Push',
  'Create',
  'Sub-accounts',
];

/** Refreshes the schedule may run. */
export type ScheduledJobName = Extract<
  (typeof JOBS)[number],
  {schedulable: true}
>['fn'];

export const SCHEDULABLE: readonly ScheduledJobName[] = JOBS.flatMap(j =>
  'schedulable' in j ? [j.fn] : [],
);

/** What a schedule runs unless the user chose otherwise. */
export const DEFAULT_SCHEDULED_JOB: ScheduledJobName = 'refreshAll';

export function jobSpec(fn: string): JobSpec | undefined {
  return JOBS.find(j => j.fn === fn);
}
