/**
 * A tiny world for the sidebar host's own test: a script with a slow job that reports its
 * progress in the user cache after each of its API exchanges, as the add-on's jobs do.
 */
import {createRuntime} from '../../local/runtime';
import type {World} from '../../local/sidebar-host/world';

const SCRIPT = `
function slowJob(n) {
  var cache = CacheService.getUserCache();
  for (var i = 1; i <= n; i++) {
    UrlFetchApp.fetch('https://api.test/step/' + i);
    cache.put('progress', String(i), 600);
  }
  return 'done ' + n;
}
function getProgress() { return CacheService.getUserCache().get('progress'); }
function fails() { var e = new Error('Settings not saved: baseUrl is required.'); e.name = 'ConfigError'; throw e; }
`;

export function setup(): World {
  const wire: World['wire'] = () => ({
    kind: 'response',
    status: 200,
    headers: {},
    body: new TextEncoder().encode('{}'),
    latencyMs: 10,
  });
  const runtime = createRuntime({distDir: null, fetch: wire});
  runtime.load(SCRIPT, 'Code.js');
  return {runtime, wire};
}

export function executions(world: World) {
  return world.runtime.executions.map(e => e.functionName);
}
