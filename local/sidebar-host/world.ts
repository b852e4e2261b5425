/**
 * What the host runs the sidebar against: an Apps Script runtime with the built add-on, and
 * the wire under its UrlFetchApp. A world module exports `setup(options, hooks)` returning a World;
 * every other export is a function `(world, ...args)` the host's `invoke` can call.
 *
 * `demoWorld` is the usual one: dist/ in the runtime, the in-process emulator with demo data,
 * the emulator's clock following the runtime's virtual clock (requests are signed with it).
 */
import {createEmulator, Emulator, EmulatorOptions} from '../emulator';
import {
  createRuntime,
  DEFAULT_START_MS,
  Runtime,
  RuntimeOptions,
} from '../runtime';
import type {WireFetch} from '../http-types';

/**
 * What the host lends a world's setup: a world that blocks its execution (an alert waiting for
 * a person) calls `serveBeside` while it waits, so calls that run beside an execution in Apps
 * Script (the sidebar's polls, a look at the sheets) are answered meanwhile.
 */
export interface HostHooks {
  serveBeside(): void;
}

export interface World {
  runtime: Runtime;
  /** The API behind UrlFetchApp; the host wraps it (interleaving, real-time delay). */
  wire: WireFetch;
  emulator?: Emulator;
}

export interface DemoWorldOptions {
  runtime?: Omit<RuntimeOptions, 'fetch'>;
  emulator?: Omit<EmulatorOptions, 'now'>;
}

export function demoWorld(options: DemoWorldOptions = {}): World {
  // The emulator seeds its data at the runtime's start time (dates agree with statuses then).
  const startMs = options.runtime?.startMs ?? DEFAULT_START_MS;
  const clock = {now: () => startMs};
  const emulator = createEmulator({
    ...options.emulator,
    now: () => clock.now(),
  });
  const runtime = createRuntime({...options.runtime, fetch: emulator.handle});
  clock.now = () => runtime.clock.now();
  return {runtime, wire: emulator.handle, emulator};
}

/** An admin change of an offer on the server (its status, its stop reason), for `invoke`. */
export function updateOffer(
  world: World,
  id: number,
  patch: {status?: string; offer_stop_reason?: string},
): void {
  world.emulator!.updateOffer(id, patch as never);
}
