/**
 * What keeps this process alive: Node's active resources that are referenced (a server, a
 * socket, a child process, a timer; an unref'd one lets the process exit and is not listed),
 * counted by kind, and what was opened since an earlier count.
 */

/** Resource kind (Node's name: TCPServerWrap, ProcessWrap, Timeout, ...) -> how many. */
export type Resources = ReadonlyMap<string, number>;

export function resources(): Resources {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
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
 * goes a moment after its close callback (libuv closes it on the next turn of the loop).
 */
export async function leftOpen(
  before: Resources,
  graceMs: number,
): Promise<string[]> {
  let left = openSince(before);
  for (let waited = 0; left.length > 0 && waited < graceMs; waited += STEP_MS) {
    await new Promise(resolve => wait(resolve, STEP_MS));
    left = openSince(before);
  }
  return left;
}
