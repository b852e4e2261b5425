/**
 * The add-on in a worker thread of its own: its V8 heap then holds the add-on's objects and
 * nothing of the runtime (the sheets, the property and cache stores, the triggers) nor of
 * whatever answers its fetches (an in-process emulator), which all stay in this thread. What
 * the bench reports as the add-on's own peak heap (bench/README.md).
 *
 * The add-on's scripts run in the worker's own global realm (values cloned into it are its
 * values, as a vm context would need them copied again); its Date reads the virtual clock,
 * which travels with every message from this thread. The Apps Script globals are this thread's
 * fakes, reached through stand-ins (peer.ts): each service call blocks the add-on until this
 * thread answers, as Apps Script's own services do.
 */
import {join} from 'node:path';
import {MessageChannel, Worker} from 'node:worker_threads';
import type {Context} from 'node:vm';
import {Peer} from './peer';
import type {AddonThread, Realm} from './realm';
import type {HeapStamp} from './thread-main';

/** Out of createThreadRealm's scope: what the ending awaits holds nothing of the runtime. */
const ended = (worker: Worker): Promise<void> =>
  worker.terminate().then(() => undefined);

export function createThreadRealm(now: () => number): Realm {
  const channel = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(join(__dirname, 'thread-worker.cjs'), {
    workerData: {port: channel.port2, signal},
    transferList: [channel.port2],
  });
  // The add-on's thread waits for this one's calls; it keeps no process alive by itself.
  worker.unref();
  let heap: HeapStamp = {used: 0, peak: 0, collectCpuMs: 0};
  // Cut at close: a peer held on (a FinalizationRegistry's pending clean-up holds it until the
  // event loop turns) then holds nothing of the runtime, whose clock this reads.
  let clock: (() => number) | undefined = now;
  const peer = new Peer({
    port: channel.port1,
    signal,
    inbox: 0,
    stamp: () => clock?.(),
    onStamp(stamp) {
      heap = stamp as HeapStamp;
    },
  });
  const thread: AddonThread = {
    heapUsed: () => heap.used,
    peakHeap: () => heap.peak,
    collectCpuMs: () => heap.collectCpuMs,
    resetPeak(liveTolerance) {
      peer.custom('collectGarbage', liveTolerance);
    },
    close() {
      // The bench ends a thread and goes on synchronously: nothing pending may hold the
      // runtime's stores until the event loop turns.
      clock = undefined;
      peer.close();
      return ended(worker);
    },
  };
  return {
    context: peer.remoteRoot() as Context,
    // Plain values of this thread: structured clone makes them the add-on realm's own.
    date: ms => new Date(ms),
    array: items => Array.from(items),
    grid: rows => Array.from(rows, row => Array.from(row)),
    object: props => ({...props}),
    exception(message) {
      const error = new Error(message);
      error.name = 'Exception';
      return error;
    },
    run: (code, filename) => peer.custom('run', code, filename),
    thread,
  };
}
