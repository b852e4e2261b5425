/**
 * The worker half of thread-realm.ts: runs the add-on's scripts in this thread's global realm
 * and serves the runtime's requests; every message it sends carries this thread's heap in use,
 * which is the add-on's (the stores it calls into live in the other thread), and its peak.
 */
import {writeSync} from 'node:fs';
import {runInNewContext, runInThisContext} from 'node:vm';
import {getHeapStatistics, setFlagsFromString} from 'node:v8';
import type {MessagePort} from 'node:worker_threads';
import {Peer} from './peer';
import {useVirtualDate} from './realm';

export interface ThreadData {
  port: MessagePort;
  signal: Int32Array;
}

/** The full collection the bench runs before a measured run, where node allows it. */
function garbageCollector(): () => void {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return () => undefined;
  }
}

/** This thread's heap in use, and the largest seen since the last `collectGarbage`. */
export interface HeapStamp {
  used: number;
  peak: number;
  /** CPU time of the process in the collections the live peak forced since then. */
  collectCpuMs: number;
}

/**
 * The peak heap since the last reset, sampled at each message. With a tolerance, the live
 * peak: V8 leaves garbage in a heap while memory is plentiful, so a sample that passes the
 * live peak so far times `tolerance` is taken again after a full collection, and only what
 * survives counts. The most the thread held live at any sample is then at least the peak
 * reported and at most `tolerance` times it. Those collections' CPU time is counted apart: the
 * runtime's thread waits for this one's message meanwhile, so the process's CPU time is theirs.
 */
function heapMeter(collect: () => void) {
  const trace = process.env.HEAP_TRACE ? tracePeak : undefined;
  const used = () => getHeapStatistics().used_heap_size;
  let peak = 0;
  let tolerance: number | undefined;
  let collectCpuMs = 0;
  return {
    reset(liveTolerance?: number) {
      collect();
      tolerance = liveTolerance;
      peak = used();
      collectCpuMs = 0;
    },
    stamp(): HeapStamp {
      if (tolerance === undefined) peak = Math.max(peak, used());
      else if (used() > peak * tolerance) {
        const start = process.cpuUsage();
        collect();
        const spent = process.cpuUsage(start);
        collectCpuMs += (spent.user + spent.system) / 1000;
        if (used() > peak) trace?.(used());
        peak = Math.max(peak, used());
      }
      return {used: used(), peak, collectCpuMs};
    },
  };
}

/**
 * Where the add-on was when its live peak rose (`HEAP_TRACE=1`, bench only): the heap and
 * the add-on's innermost frames, on stderr at once (this thread blocks on the runtime's answer,
 * so console output would wait).
 */
function tracePeak(bytes: number): void {
  const limit = Error.stackTraceLimit;
  // The runtime's own frames come first: past the default 10 no add-on frame would show.
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = stack
    .split('\n')
    .filter(line => line.includes('Code.js'))
    .slice(0, 10)
    .map(line => line.trim().split(' ')[1]);
  writeSync(
    2,
    `heap ${(bytes / 1e6).toFixed(1)} MB at ${frames.join(' < ')}\n`,
  );
}

export function serve(data: ThreadData): void {
  let now = 0;
  useVirtualDate(runInThisContext, () => now);
  const heap = heapMeter(garbageCollector());
  new Peer({
    port: data.port,
    signal: data.signal,
    inbox: 1,
    root: globalThis,
    handlers: {
      run: (code, filename) =>
        runInThisContext(code as string, {filename: filename as string}),
      collectGarbage: tolerance => heap.reset(tolerance as number | undefined),
    },
    stamp: () => heap.stamp(),
    onStamp(stamp) {
      now = stamp as number;
    },
  }).listen();
}
