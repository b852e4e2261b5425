/** Simulated time: what `Date.now()` returns inside the add-on and what service calls advance. */
export class VirtualClock {
  // Fractional so per-cell costs of 0.01 ms add up instead of rounding away.
  private ms: number;

  constructor(startMs: number) {
    this.ms = startMs;
  }

  now(): number {
    return Math.floor(this.ms);
  }

  /** Exact simulated milliseconds, fractions included (for benchmarks). */
  preciseNow(): number {
    return this.ms;
  }

  advance(ms: number): void {
    if (!(ms >= 0))
      throw new RangeError(`cannot advance the clock by ${ms} ms`);
    this.ms += ms;
  }

  /** Jumps forward to `ms` (never back: time in a run only moves on). */
  advanceTo(ms: number): void {
    if (ms > this.ms) this.ms = ms;
  }

  /**
   * Runs `fn`, then puts the clock back where it was: for what goes on beside the document's
   * executions and takes none of their time (a person looking at a sheet, a sidebar's poll).
   * Otherwise how often a page happened to look would decide the times a job records.
   */
  aside<T>(fn: () => T): T {
    const at = this.ms;
    try {
      return fn();
    } finally {
      this.ms = at;
    }
  }
}
