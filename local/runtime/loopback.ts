import {join} from 'node:path';
import {
  MessageChannel,
  MessagePort,
  receiveMessageOnPort,
  Worker,
} from 'node:worker_threads';
import {WireFetch, WireOutcome} from '../http-types';

export interface LoopbackOptions {
  /** Per exchange; past it the exchange counts as a dropped connection. Default 30 s. */
  timeoutMs?: number;
}

/** A WireFetch over real loopback HTTP, plus the way to stop its worker thread. */
export type LoopbackWireFetch = WireFetch & {close(): Promise<void>};

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Synchronous HTTP to a server on this machine, for UrlFetchApp: a worker thread does the
 * exchange while this thread blocks on Atomics.wait. The server must live in another process (a
 * server in this thread could never answer while it waits). Only http:// to loopback addresses.
 */
export function loopbackWireFetch(
  options: LoopbackOptions = {},
): LoopbackWireFetch {
  const timeoutMs = options.timeoutMs ?? 30000;
  const signal = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | undefined;
  let port: MessagePort | undefined;
  let nextId = 0;

  const start = (): MessagePort => {
    if (port) return port;
    const channel = new MessageChannel();
    worker = new Worker(join(__dirname, 'loopback-worker.mjs'), {
      workerData: {port: channel.port2, signal},
      transferList: [channel.port2],
    });
    worker.unref();
    port = channel.port1;
    port.unref();
    return port;
  };

  const fetch = (request: Parameters<WireFetch>[0]): WireOutcome => {
    const url = new URL(request.url);
    if (url.protocol !== 'http:' || !LOOPBACK_HOST.test(url.hostname)) {
      throw new Error(
        `loopback transport only reaches http:// on loopback addresses; refused ${request.url}`,
      );
    }
    const channel = start();
    const id = ++nextId;
    channel.postMessage({id, req: request, timeoutMs});
    // A margin over the worker's own timeout, which answers "dropped" first.
    const deadline = Date.now() + timeoutMs + 5000;
    for (;;) {
      const seen = Atomics.load(signal, 0);
      for (
        let m = receiveMessageOnPort(channel);
        m;
        m = receiveMessageOnPort(channel)
      ) {
        const answer = m.message as {id: number; outcome: WireOutcome};
        if (answer.id === id) return answer.outcome;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `loopback transport: no answer for ${request.method} ${request.url}`,
        );
      Atomics.wait(signal, 0, seen, left);
    }
  };

  return Object.assign(fetch, {
    async close(): Promise<void> {
      port?.close();
      await worker?.terminate();
      port = undefined;
      worker = undefined;
    },
  });
}
