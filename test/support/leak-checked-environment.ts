/**
 * The test environment of every project (jest.config.js): node's, and a test file that leaves
 * a server, a socket, a child process, a timer or a worker thread open fails, naming it. What a
 * file leaves keeps the jest worker that ran it alive, and at the end of a full run jest
 * force-exits that worker ("A worker process has failed to exit gracefully", issues 28 and 36)
 * without saying which file leaked.
 *
 * Counted from before the file's imports (a module may open something as it loads) to after
 * its last afterAll, top-level ones included, when no hook's own timeout timer runs.
 *
 * Then the file's garbage is collected. A worker that ran the large-sheet files ended a full
 * run holding 1.5 to 2.4 GB of heap, nothing open but its pipes to jest, yet jest saw it exit
 * 264 to 393 ms after asking (issue 36): the process's teardown of that much memory, against
 * jest's 500 ms before it force-exits a worker and prints its warning. Collected after each
 * file, the heap the next file and the end of the run find is the one that file left alive
 * (70 to 500 MB with every file's garbage collected, none growing from file to file).
 */
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import {TestEnvironment} from 'jest-environment-node';
import {leftOpen, Resources, resources} from './open-handles';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** How long a closed resource may take to go: jest gives a worker as long to exit. */
const GRACE_MS = 500;

export default class LeakCheckedEnvironment extends TestEnvironment {
  private before: Resources = new Map();

  override async setup(): Promise<void> {
    await super.setup();
    this.before = resources();
  }

  override async teardown(): Promise<void> {
    await super.teardown();
    const left = await leftOpen(this.before, GRACE_MS);
    collectGarbage();
    if (left.length > 0) {
      throw new Error(
        `This file left open, ${GRACE_MS} ms after its last afterAll: ${left.join(', ')}. Close (and await) what it starts, in its tests and as its modules load.`,
      );
    }
  }
}
