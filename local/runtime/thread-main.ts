/**
 * The worker half of thread-realm.ts: runs the add-on's scripts in this thread's global realm
 * and serves the runtime's requests; every message it sends carries this thread's heap in use,
 * which is the add-on's (the stores it calls into live in the other thread).
 */
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

export function serve(data: ThreadData): void {
  let now = 0;
  useVirtualDate(runInThisContext, () => now);
  const collect = garbageCollector();
  new Peer({
    port: data.port,
    signal: data.signal,
    inbox: 1,
    root: globalThis,
    handlers: {
      run: (code, filename) =>
        runInThisContext(code as string, {filename: filename as string}),
      collectGarbage: () => collect(),
    },
    stamp: () => getHeapStatistics().used_heap_size,
    onStamp(stamp) {
      now = stamp as number;
    },
  }).listen();
}
