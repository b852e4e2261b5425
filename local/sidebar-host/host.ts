/**
 * The sidebar host: runs a world (the built add-on in the local Apps Script runtime, and the
 * API behind it) in a worker thread and answers google.script.run calls from a browser page.
 * The worker keeps the page's calls off this thread, so a page can poll while a job runs.
 */
import {join} from 'node:path';
import {MessageChannel, Worker} from 'node:worker_threads';
import type {CallAnswer, HostRequest, HostResponse} from './protocol';

export interface SidebarHostOptions {
  /** Absolute path of the world module (see world.ts); default: this folder's demo-world.ts. */
  worldModule?: string;
  /** Passed to the world module's setup(). */
  worldOptions?: unknown;
  /** Calls served while another runs (Apps Script runs them side by side). */
  concurrent?: string[];
  /**
   * Exports of the world module that only look (the playground's views of the sheets): served
   * while an execution waits for a person (an open alert), as Sheets keeps drawing behind it.
   */
  lookWhileWaiting?: string[];
  /** Real milliseconds each API exchange takes, so progress can be watched. Default 0. */
  fetchDelayMs?: number;
}

export interface SidebarHost {
  /** google.script.run.<name>(...args), as the page's stand-in sends it. */
  call(name: string, args: unknown[]): Promise<CallAnswer>;
  /** Calls an export of the world module with the world: to look into it or change it. */
  invoke<T = unknown>(name: string, ...args: unknown[]): Promise<T>;
  /** Runs showSidebar as the menu does: the sidebar's title and HTML, as HtmlService served it. */
  openSidebar(): Promise<{title: string; html: string}>;
  /** Real milliseconds each API exchange takes from now on. */
  setFetchDelay(ms: number): Promise<void>;
  close(): Promise<void>;
}

type Pending = (answer: CallAnswer) => void;

/** A request before the host numbers it. */
type Outgoing = HostRequest extends infer R
  ? R extends HostRequest
    ? Omit<R, 'id'>
    : never
  : never;

export async function startSidebarHost(
  options: SidebarHostOptions = {},
): Promise<SidebarHost> {
  const channel = new MessageChannel();
  const worker = new Worker(join(__dirname, 'worker.cjs'), {
    workerData: {
      port: channel.port2,
      worldModule: options.worldModule ?? join(__dirname, 'demo-world.ts'),
      worldOptions: options.worldOptions ?? {},
      concurrent: options.concurrent ?? ['getProgress', 'getSidebarState'],
      lookWhileWaiting: options.lookWhileWaiting ?? [],
      fetchDelayMs: options.fetchDelayMs ?? 0,
    },
    transferList: [channel.port2],
  });
  const port = channel.port1;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failed: Error | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    pending.set(0, answer =>
      answer.ok ? resolve() : reject(new Error(answer.error.message)),
    );
    worker.once('error', reject);
  });
  port.on('message', (response: HostResponse) => {
    const settle = pending.get(response.id);
    pending.delete(response.id);
    settle?.(response.answer);
  });
  worker.on('error', e => {
    failed = e;
    for (const settle of pending.values()) {
      settle({
        ok: false,
        error: {name: 'Error', message: `host worker failed: ${e.message}`},
      });
    }
    pending.clear();
  });
  await ready;

  const send = (request: Outgoing): Promise<CallAnswer> => {
    if (failed) return Promise.reject(failed);
    const id = nextId++;
    return new Promise(resolve => {
      pending.set(id, resolve);
      port.postMessage({...request, id});
    });
  };

  const value = async <T>(answer: Promise<CallAnswer>): Promise<T> => {
    const a = await answer;
    if (!a.ok)
      throw Object.assign(new Error(a.error.message), {name: a.error.name});
    return a.value as T;
  };

  return {
    call: (name, args) => send({type: 'call', name, args}),
    invoke: (name, ...args) => value(send({type: 'invoke', name, args})),
    openSidebar: () => value(send({type: 'sidebar'})),
    setFetchDelay: async ms => {
      await value(send({type: 'delay', ms}));
    },
    close: async () => {
      port.close();
      await worker.terminate();
    },
  };
}
