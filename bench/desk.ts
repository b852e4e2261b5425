/**
 * A bench desk: the built add-on in the local runtime, in a thread of its own (so that its heap
 * is measured apart from the runtime's stores and the emulator), settings saved, against the
 * in-process emulator (sharing the virtual clock), with the probe on both sides. And how a
 * user runs a job: again and again while it reports rows left for lack of time.
 */
import type {Emulator, EmulatorOptions} from '../local/emulator';
import type {Runtime, RuntimeOptions} from '../local/runtime';
import {offerDesk} from '../test/support/offer-desk';
import {Probe, type ProbeOptions} from './probe';

export type {ProbeOptions as BenchOptions} from './probe';

export interface BenchDesk {
  rt: Runtime;
  emulator: Emulator;
  probe: Probe;
}

/** Materials per account are not what the bench varies: a fixed, small number. */
export const MATERIALS = 60;

/** The desk made last: the bench measures one at a time. */
let current: BenchDesk | undefined;

/**
 * A new desk. The one made before is done with: its add-on thread ends here, or its heap would
 * stay in the process while the next desk is measured.
 */
export function benchDesk(
  data: EmulatorOptions,
  options: ProbeOptions,
  runtime: RuntimeOptions = {},
): BenchDesk {
  void current?.rt.close();
  const {rt, emulator} = offerDesk(
    {seed: 1, materials: MATERIALS, ...data},
    {...runtime, ownThread: true},
  );
  const probe = new Probe(rt, options);
  rt.setFetch(probe.wire(emulator.handle));
  current = {rt, emulator, probe};
  return current;
}

/** Ends the last desk's add-on thread: a bench, or a test file, that is done leaves none behind. */
export async function endBenchDesk(): Promise<void> {
  const last = current;
  current = undefined;
  await last?.rt.close();
}

/** What a job's summary says (the part the bench reads). */
export interface Summary {
  ok: number;
  invalid: number;
  error: number;
  remaining: number;
  requests?: number;
  message: string;
}

export interface Runs {
  runs: number;
  remaining: number;
  /** Every run's summary, in order. */
  summaries: Summary[];
}

/** More runs than this means the job makes no progress. */
export const MAX_RUNS = 30;

/** Runs `entry` until it reports nothing left, as a user would run it again. */
export function runUntilDone(rt: Runtime, entry: string): Runs {
  const summaries: Summary[] = [];
  for (;;) {
    const summary = rt.run(entry) as Summary;
    summaries.push(summary);
    if (!(summary.remaining > 0)) break;
    if (summaries.length >= MAX_RUNS) {
      throw new Error(
        `${entry} still reports ${summary.remaining} rows left after ${MAX_RUNS} runs: ${summary.message}`,
      );
    }
  }
  return {
    runs: summaries.length,
    remaining: summaries[summaries.length - 1].remaining,
    summaries,
  };
}

/** Sum of one count over every run. */
export function total(runs: Runs, pick: (s: Summary) => number): number {
  return runs.summaries.reduce((n, s) => n + (pick(s) ?? 0), 0);
}
