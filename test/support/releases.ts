/**
 * The release before the outbox (test/fixtures/release-3, built from fe50b1f), and this
 * release's built bundle loaded over it: a workbook one release left, read by the next.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Runtime} from '../../local/runtime';

/** Marked its writes elsewhere: creates in rows, uploads in a memo, pushes in the state. */
export const RELEASE_3 = join(__dirname, '..', 'fixtures', 'release-3');

const DIST = join(__dirname, '..', '..', 'dist', 'Code.js');

/** Replaces the add-on the runtime runs by this release's build (npm run build first). */
export function upgradeToThisRelease(rt: Runtime): void {
  rt.load(readFileSync(DIST, 'utf8'), 'Code.js');
}
