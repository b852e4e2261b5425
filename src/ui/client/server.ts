/**
 * The server's entry points as promises, over google.script.run. Typed by src/index.ts itself,
 * so a renamed or retyped server function breaks the sidebar's type check, not the user.
 */
import type * as EntryPoints from '../../index';

type Entry = typeof EntryPoints;

export type Server = {
  [K in keyof Entry]: (
    ...args: Parameters<Entry[K]>
  ) => Promise<ReturnType<Entry[K]>>;
};

interface ScriptRun {
  withSuccessHandler(handler: (value: unknown) => void): ScriptRun;
  withFailureHandler(handler: (error: unknown) => void): ScriptRun;
}

declare const google: {script: {run: ScriptRun}};

/**
 * What a failed call says, without the "Error: " or "Exception: " Apps Script may put before
 * the server's own message.
 */
export function failureText(error: unknown): string {
  const text =
    error instanceof Error
      ? error.message
      : typeof error === 'string'
        ? error
        : String((error as {message?: unknown})?.message ?? error);
  return text.replace(/^(?:[A-Z][A-Za-z]*)?(?:Error|Exception): /, '');
}

export const server = new Proxy({} as Server, {
  get(_target, name) {
    return (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const run = google.script.run
          .withSuccessHandler(resolve)
          .withFailureHandler(error => reject(new Error(failureText(error))));
        const call = (run as unknown as Record<string, unknown>)[String(name)];
        if (typeof call !== 'function') {
          reject(new Error(`The add-on has no function ${String(name)}.`));
          return;
        }
        call.apply(run, args);
      });
  },
});
