/**
 * The add-on menu as data: built from the job catalog, so it holds every job of DESIGN 4.2.
 * Each item names a `MenuFunction`; src/ui/entry-points.ts checks at build time that every
 * one is an entry point of src/index.ts.
 */
import type {MenuEntry, MenuItem} from '../../platform/ports';
import {GROUPS, JOBS} from '../catalog';

function capitalize<S extends string>(s: S): Capitalize<S> {
  return (s.charAt(0).toUpperCase() + s.slice(1)) as Capitalize<S>;
}

type MenuJob = (typeof JOBS)[number];

/** Every function a menu item names. */
export type MenuFunction =
  | 'showSidebar'
  | 'showPushLater'
  | 'showScheduleChoice'
  | 'showFilePicker'
  | 'showCloneDialog'
  | 'menuScheduleOff'
  | `menu${Capitalize<MenuJob['fn']>}`
  | `menuPreview${Capitalize<Extract<MenuJob, {kind: 'preview'}>['fn']>}`;

function item(caption: string, functionName: MenuFunction): MenuItem {
  return {caption, functionName};
}

/** The items of one job: a preview first where the job has one. */
function jobItems(job: MenuJob): MenuItem[] {
  const run = item(
    job.kind === 'creativeAds' ? `${job.title}…` : job.title,
    `menu${capitalize(job.fn)}`,
  );
  // Under drive.file the upload reads only Drive files picked with the Picker.
  const pick =
    job.fn === 'uploadCreatives'
      ? [item('Choose files…', 'showFilePicker')]
      : [];
  // A clone writes New Offers rows for Create new offers: offered just before it.
  const clone =
    job.fn === 'createOffers'
      ? [item('Clone selected offers…', 'showCloneDialog')]
      : [];
  if (job.kind !== 'preview') return [...pick, run];
  return [
    ...pick,
    ...clone,
    item(`${job.title} (preview)`, `menuPreview${capitalize(job.fn)}`),
    run,
  ];
}

export function addonMenu(): MenuEntry[] {
  return [
    item('Open sidebar', 'showSidebar'),
    'separator',
    ...GROUPS.map(group => ({
      caption: group,
      items: [
        ...JOBS.filter(j => j.group === group).flatMap(jobItems),
        // A time is asked in the sidebar's form: a menu item cannot take one.
        ...(group === 'Push' ? [item('Push later…', 'showPushLater')] : []),
      ],
    })),
    {
      caption: 'Schedule',
      items: [
        item('Choose a scheduled refresh…', 'showScheduleChoice'),
        item('Turn scheduled refresh off', 'menuScheduleOff'),
      ],
    },
  ];
}
