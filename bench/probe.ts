/**
 * What a measured run costs besides the runtime's counters: simulated time per service method
 * (to tell where the round trips go), node CPU time (the emulator's share apart, since it runs
 * in this process), and peak heap: the add-on's own, in its thread (which reports its heap at
 * every service call it makes), and the process's, both threads together, sampled at every
 * service call and every request, as a synchronous run gives no other chance to look.
 */
import {getHeapStatistics} from 'node:v8';
import type {WireFetch} from '../local/http-types';
import type {AddonThread, MeterSnapshot, Runtime} from '../local/runtime';

/** Simulated time attributed to one service method. */
export interface MethodCost {
  key: string;
  calls: number;
  ms: number;
}

export interface ProbeOptions {
  /** Called before each measured run, so its peak heap starts from a clean heap. */
  collectGarbage?: () => void;
  /**
   * Measure the add-on's live peak heap (AddonThread.resetPeak): its thread collects whenever
   * its heap passes the live peak so far times this. Without it, the peak is of the heap in
   * use, garbage included, and the run's CPU time has no forced collection in it.
   */
  liveHeapTolerance?: number;
}

export interface Measurement {
  snapshot: MeterSnapshot;
  /**
   * Node CPU time of the run, user plus system, emulator included, less the collections the
   * live peak heap forced.
   */
  cpuMs: number;
  /** The part of cpuMs spent inside the emulator's handler. */
  emulatorCpuMs: number;
  /** Largest V8 heap in use seen during the run: the add-on's, the runtime's and the emulator's. */
  peakHeapBytes: number;
  /**
   * Largest V8 heap of the add-on's own thread during the run: live (what survives a full
   * collection) with the option `liveHeapTolerance`, else in use, garbage included.
   */
  addonPeakHeapBytes: number;
  /** Most expensive first. */
  costs: MethodCost[];
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};

export class Probe {
  private readonly costs = new Map<string, MethodCost>();
  private open: {key: string; at: number} | undefined;
  private peak = 0;
  private emulatorCpuMs = 0;
  private cpuStart: NodeJS.CpuUsage | undefined;
  private readonly thread: AddonThread;

  /**
   * Wraps the runtime's one gate for service calls. The virtual clock only moves inside
   * service calls (an exchange's latency, a lock wait and a sleep included), so the time from
   * one call to the next belongs to the first.
   */
  constructor(
    private readonly rt: Runtime,
    private readonly options: ProbeOptions = {},
  ) {
    if (!rt.realm.thread)
      throw new Error(
        'the probe measures an add-on in a thread of its own (runtime option ownThread)',
      );
    this.thread = rt.realm.thread;
    const env = rt.env;
    const call = env.call.bind(env);
    env.call = (service, key, ...price) => {
      this.close();
      this.open = {key, at: rt.clock.preciseNow()};
      this.sampleHeap();
      call(service, key, ...price);
    };
  }

  /** The wire to the emulator, timed and sampled. */
  wire(inner: WireFetch): WireFetch {
    return request => {
      const start = process.cpuUsage();
      try {
        return inner(request);
      } finally {
        this.emulatorCpuMs += cpuMsSince(start);
        this.sampleHeap();
      }
    };
  }

  begin(): void {
    this.options.collectGarbage?.();
    this.thread.resetPeak(this.options.liveHeapTolerance);
    this.costs.clear();
    this.open = undefined;
    this.emulatorCpuMs = 0;
    this.peak = 0;
    this.sampleHeap();
    this.rt.meter.reset();
    this.cpuStart = process.cpuUsage();
  }

  end(): Measurement {
    // The live peak's forced collections are the bench's work, not the job's.
    const cpuMs = cpuMsSince(this.cpuStart!) - this.thread.collectCpuMs();
    this.close();
    this.sampleHeap();
    return {
      snapshot: this.rt.snapshot(),
      cpuMs,
      emulatorCpuMs: this.emulatorCpuMs,
      peakHeapBytes: this.peak,
      addonPeakHeapBytes: this.thread.peakHeap(),
      // Copies: the probe goes on counting into its own after the run (a desk measured twice).
      costs: [...this.costs.values()]
        .map(c => ({...c}))
        .sort((a, b) => b.ms - a.ms),
    };
  }

  private close(): void {
    if (!this.open) return;
    const cost = this.costs.get(this.open.key) ?? {
      key: this.open.key,
      calls: 0,
      ms: 0,
    };
    cost.calls++;
    cost.ms += this.rt.clock.preciseNow() - this.open.at;
    this.costs.set(this.open.key, cost);
    this.open = undefined;
  }

  private sampleHeap(): void {
    this.peak = Math.max(
      this.peak,
      getHeapStatistics().used_heap_size + this.thread.heapUsed(),
    );
  }
}
