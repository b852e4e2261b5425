/** What crosses between the host (main thread) and the world it runs (a worker thread). */

/** The outcome of a google.script.run call, as the client stand-in receives it. */
export type CallAnswer =
  | {ok: true; value: unknown}
  | {ok: false; error: {name: string; message: string}};

export type HostRequest =
  /** google.script.run.<name>(...args) */
  | {id: number; type: 'call'; name: string; args: unknown[]}
  /** An export of the world module, called with the world and `args` (tests, the playground). */
  | {id: number; type: 'invoke'; name: string; args: unknown[]}
  /** Real milliseconds each API exchange takes from now on. */
  | {id: number; type: 'delay'; ms: number}
  /** Runs showSidebar as from the menu; answers the sidebar shown ({title, html}). */
  | {id: number; type: 'sidebar'};

export interface HostResponse {
  id: number;
  answer: CallAnswer;
}
