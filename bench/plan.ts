/**
 * What one bench run measures, at which sizes: every scenario, then the pull again at other
 * sizes for the scaling series, then the targets (at full size only).
 */
import type {BenchOptions} from './desk';
import {
  AgencyQuota,
  AgencySizes,
  CreateSizes,
  PullSizes,
  PushSizes,
  ScenarioResult,
  ScheduledSizes,
  UploadSizes,
  agencyScenarios,
  createScenario,
  largePullScenario,
  pullScenario,
  pushScenario,
  scheduledScenario,
  uploadScenario,
} from './scenarios';
import type {ScenarioFailure} from './report';
import {
  Doubling,
  ScalingPoint,
  TargetCheck,
  checkTargets,
  doublings,
  scalingPoint,
} from './targets';

export interface BenchSizes {
  pull: PullSizes;
  /** Issue 20's large account: pulled in one execution. */
  largePull: PullSizes;
  push: PushSizes;
  create: CreateSizes;
  /** `edits`: unpushed Budgets edits the refresh must keep; `due`: changes it applies first. */
  scheduled: ScheduledSizes;
  upload: UploadSizes;
  /** Issue 25's agency: every account in one workbook. */
  agency: AgencySizes;
  /** Offers of each pull of the scaling series, each twice the one before. */
  scaling: number[];
  /**
   * Whether issue 9's targets are judged at these sizes. They are set at full size; at a
   * tenth of it the fixed costs of a job (laying sheets out, looking ranges up) weigh far more
   * against the bound, and CPU time of a step of a few hundred offers is mostly noise.
   */
  judged: boolean;
}

/**
 * Issue 9's sizes. Since Drive files are read in batches (two fetchAll per 100 files) the
 * upload of 3,000 fits one run; one whose bound passed 6 minutes (some 16,000 files) would
 * spend the 20,000 UrlFetch calls of a consumer account's day first (3 calls per file).
 */
export const FULL: BenchSizes = {
  pull: {offers: 10000, campaigns: 500},
  largePull: {offers: 50000, campaigns: 500},
  push: {offers: 10000, campaigns: 500, edits: 2000},
  create: {offers: 200, materialsPerOffer: 3},
  scheduled: {offers: 10000, campaigns: 500, edits: 100, due: 200},
  upload: {files: 3000},
  agency: {subAccounts: 30, offersPerAccount: 1000, edits: 2000},
  scaling: [5000, 10000, 20000],
  judged: true,
};

/** A smoke run in seconds: does every scenario still do its work? Targets are not judged. */
export const QUICK: BenchSizes = {
  pull: {offers: 1000, campaigns: 50},
  largePull: {offers: 5000, campaigns: 50},
  push: {offers: 1000, campaigns: 50, edits: 200},
  create: {offers: 20, materialsPerOffer: 3},
  scheduled: {offers: 1000, campaigns: 50, edits: 10, due: 20},
  upload: {files: 60},
  agency: {subAccounts: 30, offersPerAccount: 100, edits: 200},
  scaling: [500, 1000, 2000],
  judged: false,
};

/**
 * Rounds of the scaling series: each round pulls every size once, smallest first, and a size's
 * lowest CPU time counts. CPU time is noisy on a shared machine: another process's turns slow
 * this one's memory-bound work (a pull is mostly building and collecting objects) by 10 to 30%
 * while they last. Interleaved rounds give every size the same chances of a quiet stretch,
 * where repeats of one size after another gave a burst of load to one size alone; the lowest
 * of three is what the pull costs when nothing else runs, which is what a doubling compares.
 */
export const SCALING_ROUNDS = 3;

/**
 * The scaling series: `pull` (the pull of a size, undefined when it failed) for every size in
 * each round; a size none of whose pulls failed gives a point.
 */
export function scalingSeries(
  scaling: readonly number[],
  pull: (offers: number, round: number) => ScenarioResult | undefined,
): ScalingPoint[] {
  const pulls = new Map<number, ScenarioResult[]>(scaling.map(n => [n, []]));
  for (let round = 1; round <= SCALING_ROUNDS; round++) {
    for (const offers of scaling) {
      const result = pull(offers, round);
      if (result) pulls.get(offers)!.push(result);
    }
  }
  return scaling
    .filter(offers => pulls.get(offers)!.length === SCALING_ROUNDS)
    .map(offers => scalingPoint(pulls.get(offers)!, offers));
}

export interface BenchRun {
  results: ScenarioResult[];
  failures: ScenarioFailure[];
  points: ScalingPoint[];
  steps: Doubling[];
  /** The agency's hourly refresh against a day's UrlFetch quota; null when it failed. */
  quota: AgencyQuota | null;
  /** null when the sizes are not judged (a quick run). */
  checks: TargetCheck[] | null;
}

/** The names `--only` takes: each scenario's, the agency's two measured together. */
export const SCENARIO_NAMES = [
  'pull',
  'large pull',
  'push',
  'create',
  'scheduled',
  'upload',
  'agency',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** The scenarios named after `--only` (comma-separated), or undefined for all of them. */
export function onlyScenarios(
  argv: readonly string[],
): Set<ScenarioName> | undefined {
  const at = argv.indexOf('--only');
  if (at < 0) return undefined;
  const names = (argv[at + 1] ?? '').split(',').map(name => name.trim());
  const unknown = names.filter(
    name => !(SCENARIO_NAMES as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    throw new Error(
      `--only takes scenario names separated by commas (${SCENARIO_NAMES.join(', ')}), not: ${unknown.join(', ') || 'nothing'}`,
    );
  }
  return new Set(names as ScenarioName[]);
}

/**
 * `only`: run just these scenarios (to look at one job's breakdown in seconds, not minutes);
 * the scaling series and the targets are then left out, as a partial run judges nothing.
 */
export function runBench(
  sizes: BenchSizes,
  options: BenchOptions,
  progress: (line: string) => void,
  only?: ReadonlySet<ScenarioName>,
): BenchRun {
  const wanted = (name: ScenarioName) => !only || only.has(name);
  const results: ScenarioResult[] = [];
  const failures: ScenarioFailure[] = [];
  const attempt = <T>(
    name: string,
    scenario: () => T,
    measured: (outcome: T) => readonly ScenarioResult[],
  ): T | undefined => {
    progress(`running ${name}...`);
    try {
      const outcome = scenario();
      for (const result of measured(outcome)) {
        progress(
          `  ${result.title}: ${(result.simulatedMs / 1000).toFixed(1)} simulated s, ${result.ratio.toFixed(2)}x its bound`,
        );
      }
      return outcome;
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      progress(`  failed: ${error}`);
      failures.push({name, error});
      return undefined;
    }
  };
  const one = (r: ScenarioResult) => [r];
  const scenarios: Array<[ScenarioName, () => ScenarioResult]> = [
    ['pull', () => pullScenario(sizes.pull, options)],
    ['large pull', () => largePullScenario(sizes.largePull, options)],
    ['push', () => pushScenario(sizes.push, options)],
    ['create', () => createScenario(sizes.create, options)],
    ['scheduled', () => scheduledScenario(sizes.scheduled, options)],
    ['upload', () => uploadScenario(sizes.upload, options)],
  ];
  for (const [name, scenario] of scenarios) {
    if (!wanted(name)) continue;
    const result = attempt(name, scenario, one);
    if (result) results.push(result);
  }
  const agency = wanted('agency')
    ? attempt(
        'agency',
        () => agencyScenarios(sizes.agency, options),
        a => a.results,
      )
    : undefined;
  if (agency) results.push(...agency.results);
  const scaling = only ? [] : sizes.scaling;
  // Its CPU times are compared: no forced collection in them.
  const cpuOnly = {...options, liveHeapTolerance: undefined};
  const points = scalingSeries(scaling, (offers, round) =>
    attempt(
      `pull of ${offers} offers (round ${round} of ${SCALING_ROUNDS})`,
      () => pullScenario({...sizes.pull, offers}, cpuOnly),
      one,
    ),
  );
  const steps = points.length === scaling.length ? doublings(points) : [];
  return {
    results,
    failures,
    points,
    steps,
    quota: agency?.quota ?? null,
    checks: sizes.judged && !only ? checkTargets(results, sizes, steps) : null,
  };
}
