/**
 * The targets of issue 9, checked on measured results: PASS, FAIL, or n/a when the run does
 * not hold what a target needs (no scenario of the run has a bound past 6 minutes, say).
 */
import type {PullSizes, ScenarioResult} from './scenarios';

export const MAX_RATIO = 1.5;
export const PULL_TARGET_OFFERS = 10000;
export const PULL_TARGET_MS = 30 * 1000;
/** Issue 20: a large account's pull, in one execution within the job's time budget. */
export const LARGE_PULL_OFFERS = 50000;
/** The job's own budget (src/jobs/run.ts START_BUDGET_MS): no batch starts after it. */
export const JOB_BUDGET_MS = 4.5 * 60 * 1000;
/** Apps Script's execution limit. */
export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
/**
 * Issue 37: the hidden state sheet's characters at most this share of those the job writes to
 * the other sheets, for the large pull and the agency's refresh.
 */
export const MAX_STATE_SHARE = 0.25;
const STATE_SHARE_JUDGED = ['large pull', 'agency refresh'];

/** The state sheet's characters over those written to every other sheet. */
export function stateShare(r: ScenarioResult): number {
  const others = r.charsWritten - r.stateCharsWritten;
  return others > 0 ? r.stateCharsWritten / others : 0;
}

/** "At most ~2x per doubling": fixed costs keep a linear job below 2; noise gets 10%. */
export const MAX_DOUBLING_RATIO = 2.2;
/**
 * Issue 37: the add-on's own peak heap in an execution. Google publishes no memory limit for
 * an Apps Script execution (not on https://developers.google.com/apps-script/guides/services/quotas,
 * not on the V8 runtime pages); the one figure it gives is 50 MB, the largest UrlFetch
 * response and POST payload, which an execution must be able to hold. Unsourced third-party
 * claims run from 50 MB to 500 MB. Twice that payload: bench/README.md has the reasoning.
 */
export const ADDON_HEAP_TARGET_MB = 100;
/**
 * The add-on's peak heap is its live heap (bench/README.md): its thread collects whenever its
 * heap passes the live peak so far by this factor, so the most it held live at a service call
 * is between the figure reported and this times it. The target is judged on that upper bound.
 * At 1.2 the large pull reported 103 MB where it held some 109 (issue 37): the bound was too
 * loose to judge a target by.
 */
export const LIVE_HEAP_TOLERANCE = 1.03;

export type Verdict = 'PASS' | 'FAIL' | 'n/a';

export interface TargetCheck {
  target: string;
  verdict: Verdict;
  detail: string;
}

/** One pull of the scaling series. */
export interface ScalingPoint {
  offers: number;
  simulatedMs: number;
  /** CPU time outside the emulator: the add-on and the runtime. */
  addOnCpuMs: number;
  cpuMs: number;
}

export interface Doubling {
  from: number;
  to: number;
  simulated: number;
  addOnCpu: number;
  cpu: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(0)} MB`;
const verdict = (pass: boolean): Verdict => (pass ? 'PASS' : 'FAIL');

/** A size of the series from its pulls: simulated time is exact, CPU time the lowest seen. */
export function scalingPoint(
  pulls: readonly ScenarioResult[],
  offers: number,
): ScalingPoint {
  const addOn = (r: ScenarioResult) => r.cpuMs - r.emulatorCpuMs;
  const best = pulls.reduce((a, b) => (addOn(b) < addOn(a) ? b : a));
  return {
    offers,
    simulatedMs: best.simulatedMs,
    addOnCpuMs: addOn(best),
    cpuMs: best.cpuMs,
  };
}

/** Each step of the series, as ratios of the larger size's numbers to the smaller's. */
export function doublings(points: readonly ScalingPoint[]): Doubling[] {
  return points.slice(1).map((p, i) => {
    const q = points[i];
    return {
      from: q.offers,
      to: p.offers,
      simulated: p.simulatedMs / q.simulatedMs,
      addOnCpu: p.addOnCpuMs / q.addOnCpuMs,
      cpu: p.cpuMs / q.cpuMs,
    };
  });
}

export function checkTargets(
  results: readonly ScenarioResult[],
  sizes: {pull: PullSizes; largePull: PullSizes},
  scaling: readonly Doubling[],
): TargetCheck[] {
  const pullOffers = sizes.pull.offers;
  const checks: TargetCheck[] = results.map(r => ({
    target: `${r.name}: within ${MAX_RATIO}x of its lower bound`,
    verdict: verdict(r.ratio <= MAX_RATIO),
    detail: `${r.ratio.toFixed(2)}x (${seconds(r.simulatedMs)} against ${seconds(r.bound.ms)})`,
  }));
  const pull = results.find(r => r.name === 'pull');
  checks.push(
    pull && pullOffers === PULL_TARGET_OFFERS
      ? {
          target: `pull of ${PULL_TARGET_OFFERS.toLocaleString('en-US')} offers under ${PULL_TARGET_MS / 1000} simulated seconds`,
          verdict: verdict(pull.simulatedMs < PULL_TARGET_MS),
          detail: seconds(pull.simulatedMs),
        }
      : {
          target: `pull of ${PULL_TARGET_OFFERS.toLocaleString('en-US')} offers under ${PULL_TARGET_MS / 1000} simulated seconds`,
          verdict: 'n/a',
          detail: `this run pulls ${pullOffers.toLocaleString('en-US')} offers`,
        },
  );
  const large = results.find(r => r.name === 'large pull');
  const largeTarget = `large pull of ${LARGE_PULL_OFFERS.toLocaleString('en-US')} offers in one execution, under ${JOB_BUDGET_MS / 60000} simulated minutes`;
  checks.push(
    large && sizes.largePull.offers === LARGE_PULL_OFFERS
      ? {
          target: largeTarget,
          verdict: verdict(
            large.runs === 1 && large.simulatedMs < JOB_BUDGET_MS,
          ),
          detail: `${large.runs} run(s), ${seconds(large.simulatedMs)}`,
        }
      : {
          target: largeTarget,
          verdict: 'n/a',
          detail: `this run pulls ${sizes.largePull.offers.toLocaleString('en-US')} offers`,
        },
  );
  for (const name of STATE_SHARE_JUDGED) {
    const r = results.find(x => x.name === name);
    const target = `${name}: the state sheet's characters at most ${MAX_STATE_SHARE * 100}% of those written to the other sheets`;
    const fullSize =
      name !== 'large pull' || sizes.largePull.offers === LARGE_PULL_OFFERS;
    checks.push(
      r && fullSize
        ? {
            target,
            verdict: verdict(stateShare(r) <= MAX_STATE_SHARE),
            detail: `${(100 * stateShare(r)).toFixed(1)}% (${r.stateCharsWritten.toLocaleString('en-US')} of ${(r.charsWritten - r.stateCharsWritten).toLocaleString('en-US')})`,
          }
        : {
            target,
            verdict: 'n/a',
            detail: r
              ? `this run pulls ${sizes.largePull.offers.toLocaleString('en-US')} offers`
              : 'not in this run',
          },
    );
  }
  const long = results.filter(r => r.bound.ms > EXECUTION_LIMIT_MS);
  checks.push(
    ...long.map(r => ({
      target: `${r.name}: lower bound past 6 minutes, finishes across runs`,
      verdict: verdict(r.longestRunMs <= EXECUTION_LIMIT_MS),
      detail: `bound ${seconds(r.bound.ms)}; done in ${r.runs} runs, the longest ${seconds(r.longestRunMs)}`,
    })),
  );
  if (long.length === 0) {
    checks.push({
      target: 'a lower bound past 6 minutes finishes across runs',
      verdict: 'n/a',
      detail: 'no scenario of this run has such a bound',
    });
  }
  checks.push(
    ...results.map(r => ({
      target: `${r.name}: the add-on's own peak heap under ${ADDON_HEAP_TARGET_MB} MB`,
      verdict: verdict(
        r.addonPeakHeapBytes * LIVE_HEAP_TOLERANCE <
          ADDON_HEAP_TARGET_MB * 1024 * 1024,
      ),
      detail: `${megabytes(r.addonPeakHeapBytes)}, at most ${megabytes(r.addonPeakHeapBytes * LIVE_HEAP_TOLERANCE)} live (the whole process: ${megabytes(r.peakHeapBytes)})`,
    })),
  );
  checks.push(doublingCheck(scaling));
  return checks;
}

/**
 * No quadratic step: each doubling of the pull at most MAX_DOUBLING_RATIO in simulated time
 * and in the add-on's CPU time (the emulator's apart). n/a without a series.
 */
export function doublingCheck(scaling: readonly Doubling[]): TargetCheck {
  return {
    target: `no quadratic step: each doubling of the pull at most ${MAX_DOUBLING_RATIO}x in simulated and CPU time`,
    verdict:
      scaling.length === 0
        ? 'n/a'
        : verdict(
            scaling.every(
              d =>
                d.simulated <= MAX_DOUBLING_RATIO &&
                d.addOnCpu <= MAX_DOUBLING_RATIO,
            ),
          ),
    detail: scaling
      .map(
        d =>
          `${d.from}->${d.to}: simulated ${d.simulated.toFixed(2)}x, CPU ${d.addOnCpu.toFixed(2)}x`,
      )
      .join('; '),
  };
}
