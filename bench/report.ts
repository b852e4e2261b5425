/**
 * The bench's words: the results table (markdown, printed and appended to results.md), the
 * targets, the scaling series, and for each scenario where its simulated time went.
 */
import {appendFileSync, existsSync, writeFileSync} from 'node:fs';
import {URL_FETCH_QUOTA} from '../src/rules/refresh-estimate';
import type {AgencyQuota, ScenarioResult} from './scenarios';
import {
  type Doubling,
  type ScalingPoint,
  type TargetCheck,
  stateShare,
} from './targets';

/** A scenario that could not be measured: the job failed or did not do the work. */
export interface ScenarioFailure {
  name: string;
  error: string;
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const s = (ms: number) => (ms / 1000).toFixed(1);
const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(0);

function row(cells: ReadonlyArray<string | number>): string {
  return `| ${cells.join(' | ')} |`;
}

export function resultsTable(
  results: readonly ScenarioResult[],
  failures: readonly ScenarioFailure[],
): string[] {
  const headers = [
    'scenario',
    'entry point',
    'runs',
    'HTTP requests',
    'fetchAll batches',
    'single fetches',
    'Spreadsheet calls (round trips)',
    'cells written',
    'cells read',
    'characters written (state sheet: share of the rest)',
    'simulated s',
    'lower bound s',
    'ratio',
    'CPU s (emulator)',
    'peak heap MB',
    'add-on peak heap MB',
  ];
  return [
    row(headers),
    row(headers.map(() => '---')),
    ...results.map(r =>
      row([
        r.title,
        r.entry,
        r.runs,
        n(r.requests),
        n(r.batches),
        n(r.fetches),
        `${n(r.sheetCalls)} (${n(r.sheetRoundTrips)})`,
        n(r.cellsWritten),
        n(r.cellsRead),
        `${n(r.charsWritten)} (${n(r.stateCharsWritten)}: ${(100 * stateShare(r)).toFixed(0)}% of the rest)`,
        s(r.simulatedMs),
        s(r.bound.ms),
        `${r.ratio.toFixed(2)}x`,
        `${s(r.cpuMs)} (${s(r.emulatorCpuMs)})`,
        mb(r.peakHeapBytes),
        mb(r.addonPeakHeapBytes),
      ]),
    ),
    ...failures.map(f =>
      row([
        f.name,
        `**failed**: ${f.error.replace(/\|/g, '\\|')}`,
        ...headers.slice(2).map(() => ''),
      ]),
    ),
  ];
}

export function targetLines(checks: readonly TargetCheck[]): string[] {
  return checks.map(c => `- **${c.verdict}** ${c.target}: ${c.detail}`);
}

/** The agency's hourly scheduled refresh against a day's UrlFetch quotas. */
export function quotaLines(q: AgencyQuota | null): string[] {
  if (q === null) return ['- not measured: the agency scenario failed'];
  const share = (quota: number) =>
    `${n(quota)} a day: ${((100 * q.callsPerDay) / quota).toFixed(0)}%`;
  return [
    `- ${q.job} as every account, ${n(q.accounts)} accounts and ${n(q.offers)} offers, every hour: ${n(q.requestsPerRun)} calls a run, ${n(q.callsPerDay)} a day (${q.runsPerDay} runs)`,
    `- consumer (gmail.com) quota, ${share(URL_FETCH_QUOTA.consumer)}; Google Workspace quota, ${share(URL_FETCH_QUOTA.workspace)}`,
  ];
}

export function scalingTable(
  points: readonly ScalingPoint[],
  steps: readonly Doubling[],
): string[] {
  return [
    row(['offers pulled', 'simulated s', 'CPU s (add-on)', 'CPU s (all)']),
    row(['---', '---', '---', '---']),
    ...points.map(p =>
      row([n(p.offers), s(p.simulatedMs), s(p.addOnCpuMs), s(p.cpuMs)]),
    ),
    '',
    ...steps.map(
      d =>
        `- ${n(d.from)} -> ${n(d.to)} offers: simulated ${d.simulated.toFixed(2)}x, CPU ${d.addOnCpu.toFixed(2)}x (add-on and runtime), ${d.cpu.toFixed(2)}x (emulator included)`,
    ),
  ];
}

/** Where one scenario's time went, and how its bound is made up. */
export function breakdown(r: ScenarioResult, top = 10): string[] {
  const b = r.bound;
  const phases = r.needs.phases
    .filter(p => p.requests > 0)
    .map(p => `${n(p.requests)} ${p.what}`)
    .join(', then ');
  const sheets = r.needs.sheets
    .map(
      t => `${t.sheet} read ${n(t.cellsBefore)} / write ${n(t.changedCells)}`,
    )
    .join('; ');
  return [
    `${r.title} (${r.entry}, ${r.runs} run${r.runs === 1 ? '' : 's'}, longest ${s(r.longestRunMs)} s): ${r.outcome}`,
    `  bound ${s(b.ms)} s = HTTP ${s(b.httpMs)} s (${n(b.requests)} requests in ${n(b.batches)} batches: ${phases})` +
      ` + sheets ${s(b.sheetsMs)} s (${n(b.sheetCalls)} calls, ${n(b.sheetRoundTrips)} round trips, ${n(b.cells)} cells: ${sheets})`,
    `  requests: ${Object.entries(r.operations)
      .map(([op, k]) => `${op} ${n(k)}`)
      .join(', ')}`,
    `  simulated time by call (calls, s): ${r.costs
      .slice(0, top)
      .map(c => `${c.key} ${n(c.calls)} ${s(c.ms)}`)
      .join(', ')}`,
  ];
}

const RESULTS_HEAD = [
  '# Bench results',
  '',
  'Appended by `npm run bench` (bench/README.md tells how to read it). Newest last.',
  '',
];

/** Appends one section to the results file, creating it with its heading if needed. */
export function appendResults(path: string, section: readonly string[]): void {
  if (!existsSync(path)) writeFileSync(path, RESULTS_HEAD.join('\n'));
  appendFileSync(path, ['', ...section, ''].join('\n'));
}
