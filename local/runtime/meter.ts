import {VirtualClock} from './clock';

/** Counters and simulated time at one moment, as benchmarks report them. */
export interface MeterSnapshot {
  /** Virtual clock, epoch milliseconds. */
  nowMs: number;
  /** Simulated milliseconds since the last reset (fractional: per-cell costs). */
  elapsedMs: number;
  /** Calls by `Class.method`, totals by service name, and volumes (cells, requests, bytes). */
  counts: Record<string, number>;
}

/** Counts every service call and volume; reset between benchmark phases. */
export class Meter {
  private readonly counts = new Map<string, number>();
  private since: number;
  /** Set while a person, not the script, acts in the document (Env.asPerson). */
  paused = false;

  constructor(private readonly clock: VirtualClock) {
    this.since = clock.preciseNow();
  }

  add(key: string, n = 1): void {
    if (this.paused) return;
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  snapshot(): MeterSnapshot {
    const counts: Record<string, number> = {};
    for (const key of [...this.counts.keys()].sort()) {
      counts[key] = this.counts.get(key)!;
    }
    return {
      nowMs: this.clock.now(),
      elapsedMs: this.clock.preciseNow() - this.since,
      counts,
    };
  }

  reset(): void {
    this.counts.clear();
    this.since = this.clock.preciseNow();
  }
}
