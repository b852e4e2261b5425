import * as vm from 'node:vm';

/**
 * The vm context the add-on runs in, and the makers of values that must belong to it: bundle code
 * tests `x instanceof Date`, `e instanceof Error`, and those fail for objects made in node's own
 * realm. Every Date, Array, plain object and Error a fake hands to the add-on comes from here.
 */
export interface Realm {
  readonly context: vm.Context;
  date(ms: number): Date;
  array<T>(items: ArrayLike<T>): T[];
  /** A 2-D grid, every row an array of the context. */
  grid<T>(rows: ArrayLike<ArrayLike<T>>): T[][];
  object<T extends object>(props: T): T;
  /** An Apps Script exception: `name` is 'Exception', so `String(e)` reads "Exception: message". */
  exception(message: string): Error;
  /** Evaluates script text in the context (the add-on's files, templates). */
  run(code: string, filename: string): unknown;
  /** Where the add-on runs in a thread of its own (thread-realm.ts): that thread. */
  readonly thread?: AddonThread;
}

/** The thread the add-on runs in, apart from the runtime's stores and whatever serves its fetches. */
export interface AddonThread {
  /** Bytes of V8 heap in use in the add-on's thread, as it last reported (at each call it made). */
  heapUsed(): number;
  /**
   * The largest `heapUsed` seen since `resetPeak`; with its `liveTolerance`, the largest live
   * heap (thread-main.ts heapMeter).
   */
  peakHeap(): number;
  /**
   * Collects the add-on thread's garbage (a full collection), then starts a new peak there.
   * With `liveTolerance`, the peak counts only what survives a collection: the thread collects
   * again whenever its heap passes the live peak so far times `liveTolerance`.
   */
  resetPeak(liveTolerance?: number): void;
  /** CPU time of the process in the collections `liveTolerance` forced since `resetPeak`. */
  collectCpuMs(): number;
  /** Ends the thread (it keeps no process alive meanwhile). */
  close(): Promise<void>;
}

/**
 * Replaces the context's Date so that `new Date()` and `Date.now()` read the virtual clock while
 * instances stay genuine Dates of the context (`instanceof Date`, subclassing and
 * `d.constructor === Date` all keep working).
 */
const VIRTUAL_DATE = `(function (virtualNow) {
  var RealDate = Date;
  var VirtualDate = function Date() {
    if (new.target === undefined) return new RealDate(virtualNow()).toString();
    var args = arguments.length === 0 ? [virtualNow()] : Array.prototype.slice.call(arguments);
    return Reflect.construct(RealDate, args, new.target === VirtualDate ? RealDate : new.target);
  };
  Object.defineProperty(VirtualDate, 'length', {value: 7});
  VirtualDate.prototype = RealDate.prototype;
  VirtualDate.now = function now() { return virtualNow(); };
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', {value: VirtualDate, writable: true, configurable: true});
  Object.defineProperty(globalThis, 'Date', {value: VirtualDate, writable: true, configurable: true});
})`;

/** Makes `Date` of the realm `evaluate` runs script text in read the virtual clock `now`. */
export function useVirtualDate(
  evaluate: (code: string) => unknown,
  now: () => number,
): void {
  (evaluate(VIRTUAL_DATE) as (now: () => number) => void)(now);
}

export function createRealm(now: () => number): Realm {
  const context = vm.createContext({});
  useVirtualDate(code => vm.runInContext(code, context), now);
  const ContextDate = vm.runInContext('Date', context) as DateConstructor;
  const ContextArray = vm.runInContext('Array', context) as ArrayConstructor;
  const ContextObject = vm.runInContext('Object', context) as ObjectConstructor;
  const ContextError = vm.runInContext('Error', context) as ErrorConstructor;
  const array = <T>(items: ArrayLike<T>): T[] => ContextArray.from(items);
  return {
    context,
    date: ms => new ContextDate(ms),
    array,
    grid: rows => ContextArray.from(rows, row => array(row)),
    object: props => ContextObject.assign(new ContextObject(), props),
    exception(message) {
      const error = new ContextError(message);
      error.name = 'Exception';
      return error;
    },
    run: (code, filename) => vm.runInContext(code, context, {filename}),
  };
}
