/**
 * Starts the HTTP emulator as a child process. Tests whose client blocks the thread (the local
 * runtime's synchronous UrlFetchApp: a worker plus Atomics.wait) need the server in another
 * process: one in the same thread could never answer.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import * as path from 'node:path';
import {pathToFileURL} from 'node:url';
import {connectEmulator, type EmulatorControl} from './control-client';
import type {DuplicateUploadShape} from './operations/context';

export interface EmulatorProcessOptions {
  seed?: number;
  offers?: number;
  campaigns?: number;
  materials?: number;
  /** Agency sub-accounts of demo_adv (EmulatorOptions.subAccounts). */
  subAccounts?: number;
  /** The nameless sub-account listing (EmulatorOptions.listsSubAccounts). */
  listsSubAccounts?: boolean | 'names';
  clickTestSeconds?: number;
  duplicateUploadShape?: DuplicateUploadShape;
  duplicateUploadStatus?: number;
  latencyMs?: number;
  clockSkewSeconds?: number;
  /** Default 0: any free port. */
  port?: number;
  /** How long to wait for the server to listen; default 15 s. */
  startTimeoutMs?: number;
}

export interface EmulatorProcess extends EmulatorControl {
  /** e.g. http://127.0.0.1:41234 */
  readonly baseUrl: string;
  readonly port: number;
  readonly pid: number;
  /** Ends the process and waits for it to exit. */
  stop(): Promise<void>;
}

const FLAG_NAMES: Record<keyof EmulatorProcessOptions, string | undefined> = {
  seed: '--seed',
  offers: '--offers',
  campaigns: '--campaigns',
  materials: '--materials',
  subAccounts: '--sub-accounts',
  listsSubAccounts: '--lists-sub-accounts',
  clickTestSeconds: '--click-test-seconds',
  duplicateUploadShape: '--duplicate-upload-shape',
  duplicateUploadStatus: '--duplicate-upload-status',
  latencyMs: '--latency-ms',
  clockSkewSeconds: '--clock-skew',
  port: '--port',
  startTimeoutMs: undefined,
};

/** A child that did not start, ended (its pid gone) before this is thrown. */
export class EmulatorStartError extends Error {
  constructor(
    message: string,
    readonly pid: number | undefined,
  ) {
    super(message);
  }
}

export async function startEmulatorProcess(
  options: EmulatorProcessOptions = {},
): Promise<EmulatorProcess> {
  const flags = Object.entries({port: 0, ...options}).flatMap(
    ([key, value]) => {
      const flag = FLAG_NAMES[key as keyof EmulatorProcessOptions];
      return flag && value !== undefined ? [flag, String(value)] : [];
    },
  );
  // tsx's loader, resolved from here so the child needs no particular working directory.
  const loader = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(
    process.execPath,
    [
      '--import',
      loader,
      path.join(__dirname, 'cli.ts'),
      ...flags,
      '--exit-on-stdin-close',
    ],
    {stdio: ['pipe', 'pipe', 'pipe']},
  );
  // 'close', not 'exit': its pipes are closed too, so nothing of the child outlives a stop.
  const exited = new Promise<void>(resolve =>
    child.once('close', () => resolve()),
  );
  let port: number;
  try {
    port = await waitForPort(child, options.startTimeoutMs ?? 15000);
  } catch (error) {
    // A child that failed to start is gone before the caller hears of it: no test file ends
    // with a process of its own still alive.
    child.kill();
    await exited;
    throw new EmulatorStartError((error as Error).message, child.pid);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    ...connectEmulator(baseUrl),
    baseUrl,
    port,
    pid: child.pid!,
    stop: async () => {
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The port the child prints once it listens; its output so far if it fails to start. */
function waitForPort(
  child: ChildProcessWithoutNullStreams,
  timeoutMs: number,
): Promise<number> {
  let output = '';
  return new Promise<number>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += String(chunk);
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) settle(() => resolve(Number(match[1])));
    };
    const onExit = (code: number | null) =>
      settle(() =>
        reject(new Error(`emulator exited with ${code}\n${output}`)),
      );
    const timer = setTimeout(() => {
      settle(() =>
        reject(new Error(`emulator did not start in time\n${output}`)),
      );
    }, timeoutMs);
    function settle(finish: () => void) {
      clearTimeout(timer);
      child.stdout.off('data', onOutput);
      child.stderr.off('data', onOutput);
      child.off('exit', onExit);
      // Keep draining the pipes so the child never blocks on a full one; errors stay visible.
      child.stdout.resume();
      child.stderr.pipe(process.stderr);
      finish();
    }
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('exit', onExit);
  });
}
