/**
 * The google.script.run stand-in: serves the built sidebar from a browser page against the
 * local Apps Script runtime and the emulator. Used by the browser tests and the playground.
 */
export {startSidebarHost} from './host';
export type {SidebarHost, SidebarHostOptions} from './host';
export {BINDING, googleScriptRunShim, withShim} from './shim';
export type {ShimOptions} from './shim';
export {serveHostCall} from './http';
export {demoWorld} from './world';
export type {DemoWorldOptions, World} from './world';
export type {CallAnswer} from './protocol';
