/** The in-memory Apps Script runtime: see createRuntime. */
export {createRuntime, DEFAULT_START_MS, Runtime} from './runtime';
export type {
  AppsScriptGlobals,
  ClientCallFailure,
  RuntimeOptions,
} from './runtime';
export {DEFAULT_LATENCY} from './latency';
export type {LatencyModel} from './latency';
export type {MeterSnapshot} from './meter';
export type {AddonThread} from './realm';
export type {Execution, AuthModeName} from './env';
export {EXCEEDED_TIME} from './env';
export {loopbackWireFetch} from './loopback';
export type {LoopbackOptions, LoopbackWireFetch} from './loopback';
export {typeIntoCell} from './spreadsheet/typing';
export type {
  Collaborator,
  CollaboratorAction,
  SheetRef,
  SortRowsSpec,
} from './collaborator';
export type {FakeSheet} from './spreadsheet/sheet';
export type {FakeSpreadsheet} from './spreadsheet/spreadsheet';
export type {LogEntry} from './logs';
export type {MenuEntry, MenuRecord, UiEvent} from './ui';
export type {DriveOptions} from './drive';
export type {TriggerRecord} from './triggers';
export {FORMULA_RESULT, GENERAL_FORMAT} from './spreadsheet/cell';
export {CHARS_WRITTEN} from './spreadsheet/sheet';
export {PROTECTED_EDIT} from './spreadsheet/protection';
export {
  AUTHORIZATION_REQUIRED,
  TRIGGER_TIME_USED_UP,
} from './trigger-conditions';
export type {TriggerContext} from './trigger-conditions';
