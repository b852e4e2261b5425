/**
 * Every test file (jest.config.js setupFilesAfterEnv) must close what it opens: a server, a
 * socket, a child process or a timer still open after its last afterAll keeps the jest worker
 * that ran it alive, and at the end of a full run jest force-exits that worker ("A worker
 * process has failed to exit gracefully", issue 28) without saying which file leaked. This
 * fails the file itself, naming what it left open.
 *
 * It runs after the afterAll hooks of a file's describe blocks, not after a file's top-level
 * afterAll: tests close what they start inside their describe. Node lists no worker threads:
 * the sidebar host and the loopback transport await their thread's exit in close().
 */
import {leftOpen, Resources, resources} from './open-handles';

/** How long a closed resource may take to go: jest gives a worker as long to exit. */
const GRACE_MS = 500;

let before: Resources;

beforeAll(() => {
  before = resources();
});

afterAll(async () => {
  const left = await leftOpen(before, GRACE_MS);
  if (left.length > 0) {
    throw new Error(
      `This file left open, ${GRACE_MS} ms after its last afterAll: ${left.join(', ')}. Close (and await) what its tests start.`,
    );
  }
});
