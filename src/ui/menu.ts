/**
 * The add-on menu as data: built from the job catalog, so it holds every job of DESIGN 4.2,
 * and typed against src/index.ts, so every item names an entry point that exists.
 */
import type {MenuEntry, MenuItem} from '../platform/ports';
import {EntryPointName, GROUPS, JOBS} from './catalog';

function capitalize<S extends string>(s: S): Capitalize<S> {
  return (s.charAt(0).toUpperCase() + s.slice(1)) as Capitalize<S>;
}

function item(caption: string, functionName: EntryPointName): MenuItem {
  return {caption, functionName};
}

/** The items of one job: a preview first where the job has one. */
function jobItems(job: (typeof JOBS)[number]): MenuItem[] {
  const run = item(
    job.kind === 'creativeAds' ? `${job.title}…` : job.title,
    `menu${capitalize(job.fn)}`,
  );
  // Under drive.file the upload reads only Drive files picked with the Picker.
  const pick =
    job.fn === 'uploadCreatives'
      ? [item('Choose files…', 'showFilePicker')]
      : [];
  if (job.kind !== 'preview') return [...pick, run];
  return [
    ...pick,
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
      items: JOBS.filter(j => j.group === group).flatMap(jobItems),
    })),
    {
      caption: 'Schedule',
      items: [
        item('Choose a scheduled refresh…', 'showSidebar'),
        item('Turn scheduled refresh off', 'menuScheduleOff'),
      ],
    },
  ];
}
