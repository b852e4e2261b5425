/**
 * What keeps this process alive: Node's active resources that are referenced (a server, a
 * socket, a child process, a timer; an unref'd one lets the process exit and is not listed),
 * plus the worker threads still running, counted by kind, and what was opened since an earlier
 * count.
 */
import type {Worker} from 'node:worker_threads';

/** Resource kind (Node's name: TCPServerWrap, ProcessWrap, Timeout, Worker, ...) -> how many. */
export type Resources = ReadonlyMap<string, number>;

/**
 * Node lists no worker thread among its resources, yet one left running keeps a jest worker
 * alive (or, unref'd, keeps its thread and memory): each is watched from its start to its exit.
 * Node tells only the real `process` of a new thread, not a test file's copy of it: this module
 * sees them where the test environment loads it, outside the test files' sandbox.
 */
const workers = new Set<Worker>();
process.on('worker', worker => {
  workers.add(worker);
  worker.once('exit', () => workers.delete(worker));
});

export function resources(): Resources {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  if (workers.size > 0) counts.set('Worker', workers.size);
  return counts;
}

/** "TCPServerWrap ×1": each kind open now more often than in `before`. */
export function openSince(before: Resources): string[] {
  return [...resources()]
    .filter(([kind, n]) => n > (before.get(kind) ?? 0))
    .map(([kind, n]) => `${kind} ×${n - (before.get(kind) ?? 0)}`);
}

// Taken when this module loads, before a test can install fake timers.
const wait = setTimeout;
const STEP_MS = 10;

/**
 * What is still open since `before` once closing had `graceMs` to finish: a closed handle
 * goes a moment after its close callback (libuv closes it on the next turn of the loop). Counted
 * after a turn of the loop at least: Node tells of a new worker thread on the next tick, and a
 * caller that awaited only promises has not let it come.
 */
export async function leftOpen(
  before: Resources,
  graceMs: number,
): Promise<string[]> {
  let left: string[];
  let waited = 0;
  do {
    await new Promise(resolve => wait(resolve, STEP_MS));
    waited += STEP_MS;
    left = openSince(before);
  } while (left.length > 0 && waited < graceMs);
  return left;
}
