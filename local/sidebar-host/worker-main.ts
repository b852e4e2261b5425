/**
 * The worker half of the sidebar host: owns the world (runtime and emulator) and answers the
 * host's requests one at a time, in order.
 *
 * Apps Script runs google.script.run calls in executions of their own, side by side: the
 * sidebar polls getProgress while a job is still running. The runtime is synchronous, so calls
 * named `concurrent` are served in between, at each API exchange of the running execution
 * (each one in an execution of its own); every other call waits its turn. While an execution
 * waits for a person (an alert), the world serves them too, and the `lookWhileWaiting` exports.
 */
import {MessagePort, receiveMessageOnPort} from 'node:worker_threads';
import type {WireFetch} from '../http-types';
import type {CallAnswer, HostRequest, HostResponse} from './protocol';
import type {HostHooks, World} from './world';

export interface WorkerData {
  port: MessagePort;
  worldModule: string;
  worldOptions: unknown;
  concurrent: string[];
  lookWhileWaiting: string[];
  fetchDelayMs: number;
}

type WorldModule = Record<string, unknown> & {
  setup(options: unknown, hooks: HostHooks): World;
};

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Errors from the add-on belong to the runtime's realm: read them by shape, not instanceof. */
function failure(e: unknown): CallAnswer {
  const error =
    typeof e === 'object' && e !== null && 'message' in e
      ? {
          name: String((e as Error).name || 'Error'),
          message: String((e as Error).message),
        }
      : {name: 'Error', message: String(e)};
  return {ok: false, error};
}

export function serve(data: WorkerData): void {
  const module = require(data.worldModule) as WorldModule;
  const world = module.setup(data.worldOptions, {
    serveBeside: () => between(true),
  });
  const {runtime} = world;
  const concurrent = new Set(data.concurrent);
  const looks = new Set(data.lookWhileWaiting);
  const waiting: HostRequest[] = [];
  let delayMs = data.fetchDelayMs;
  let serving = false;

  const answer = (id: number, outcome: () => unknown) => {
    let result: CallAnswer;
    try {
      result = {ok: true, value: outcome()};
    } catch (e) {
      result = failure(e);
    }
    data.port.postMessage({id, answer: result} satisfies HostResponse);
  };

  /**
   * A `concurrent` call (the sidebar's polls) takes none of the virtual clock's time: in Apps
   * Script it runs beside the others, and how many the page made depends on real time, which
   * would otherwise make the times and change ids of one walk differ from the next.
   */
  const poll = (name: string, args: unknown[]): unknown =>
    runtime.clock.aside(() => runtime.call(name, ...args));

  /** Runs a call in an execution of its own while another is under way. */
  const beside = (name: string, args: unknown[]): unknown => {
    const running = runtime.env.execution;
    runtime.env.execution = undefined;
    try {
      return poll(name, args);
    } finally {
      runtime.env.execution = running;
    }
  };

  const invoke = (name: string, args: unknown[]): unknown => {
    const fn = module[name];
    if (typeof fn !== 'function' || name === 'setup') {
      throw new Error(`the world module exports no function ${name}`);
    }
    return (fn as (w: World, ...a: unknown[]) => unknown)(world, ...args);
  };

  const handle = (request: HostRequest): void => {
    switch (request.type) {
      case 'call':
        answer(request.id, () =>
          concurrent.has(request.name)
            ? poll(request.name, request.args)
            : runtime.call(request.name, ...request.args),
        );
        return;
      case 'invoke':
        answer(request.id, () => invoke(request.name, request.args));
        return;
      case 'sidebar':
        answer(request.id, () => {
          runtime.run('showSidebar');
          const shown = runtime.ui.sidebar();
          if (!shown) throw new Error('showSidebar showed no sidebar');
          return {title: shown.title, html: shown.html};
        });
        return;
      case 'delay':
        delayMs = request.ms;
        answer(request.id, () => delayMs);
        return;
    }
  };

  /**
   * At an API exchange: serve the concurrent calls that came in, keep the others. While a
   * person is asked (`asking`), the looks at the world too: the execution changes nothing
   * until it is answered.
   */
  const between = (asking = false) => {
    for (
      let m = receiveMessageOnPort(data.port);
      m;
      m = receiveMessageOnPort(data.port)
    ) {
      const request = m.message as HostRequest;
      if (request.type === 'call' && concurrent.has(request.name)) {
        answer(request.id, () => beside(request.name, request.args));
      } else if (
        asking &&
        request.type === 'invoke' &&
        looks.has(request.name)
      ) {
        answer(request.id, () => invoke(request.name, request.args));
      } else {
        waiting.push(request);
      }
    }
  };

  const wire: WireFetch = request => {
    between();
    if (delayMs > 0) Atomics.wait(pause, 0, 0, delayMs);
    return world.wire(request);
  };
  runtime.setFetch(wire);

  const pump = () => {
    if (serving) return;
    serving = true;
    try {
      for (let next = waiting.shift(); next; next = waiting.shift())
        handle(next);
    } finally {
      serving = false;
    }
  };

  data.port.on('message', (request: HostRequest) => {
    waiting.push(request);
    pump();
  });
  data.port.postMessage({
    id: 0,
    answer: {ok: true, value: 'ready'},
  } satisfies HostResponse);
}
