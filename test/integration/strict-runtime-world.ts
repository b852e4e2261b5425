/**
 * The sidebar host's world for strict-runtime.test.ts: the built add-on over the emulator
 * (demoWorld), and a switch that makes google.script.run fail as in a browser signed into
 * several Google accounts.
 */
import type {ClientCallFailure} from '../../local/runtime';
import {demoWorld, World} from '../../local/sidebar-host/world';

export function setup(): World {
  return demoWorld();
}

export function refuseClientCalls(world: World, failure?: ClientCallFailure) {
  world.runtime.refuseClientCalls(failure);
}

export function executions(world: World): number {
  return world.runtime.executions.length;
}
