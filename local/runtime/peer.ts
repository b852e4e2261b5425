/**
 * Synchronous calls between two threads, for an add-on that runs in a worker thread of its own
 * (thread-realm.ts): Apps Script's services are synchronous, so each side blocks on
 * Atomics.wait until the other answers, and serves the other's calls while it waits (the
 * add-on calls a service, the service calls back into the add-on's realm, and so on).
 *
 * Values cross by structured clone, except objects with behaviour: a function, a class
 * instance or an object holding functions crosses as a reference, and the other side gets a
 * stand-in that forwards calls, reads and writes to it. The same object always crosses as the
 * same reference, so the other side sees one stand-in (identity holds: enum values compare).
 * A stand-in the other side dropped is released at its next message (FinalizationRegistry,
 * which runs when that thread's event loop turns: between executions, for the add-on).
 */
import {types} from 'node:util';
import {MessagePort, receiveMessageOnPort} from 'node:worker_threads';

/** Marks a reference among cloned values (no value a service hands out has this key). */
const REF = '\u0000ref';

interface Ref {
  /** 'mine': an object of the sender; 'yours': one of the receiver, coming back. */
  [REF]: 'mine' | 'yours';
  id: number;
  /** Names of its methods (calls), when it is not itself a function. */
  methods?: string[];
}

type Operation =
  | {op: 'call'; target: number; method?: string; args: unknown[]}
  | {op: 'get'; target: number; prop: string}
  | {op: 'set'; target: number; prop: string; value: unknown}
  | {op: 'custom'; name: string; args: unknown[]};

interface SentError {
  name: string;
  message: string;
  stack?: string;
}

type Body =
  | {kind: 'request'; id: number; body: Operation}
  | {kind: 'reply'; id: number; ok: true; value: unknown}
  | {kind: 'reply'; id: number; ok: false; error: SentError};

/** Every message also carries what the sender released and its stamp. */
type Message = Body & {released: Array<[number, number]>; stamp: unknown};

export interface PeerOptions {
  port: MessagePort;
  /** Two counters shared by both threads: index `inbox` is bumped for this side's messages. */
  signal: Int32Array;
  inbox: 0 | 1;
  /** The object the other side reaches as its root (`remoteRoot`), if this side offers one. */
  root?: object;
  /** Operations of this side by name (`custom`), besides calls, reads and writes. */
  handlers?: Record<string, Callable>;
  /** Sent with every message: the clock from the runtime, the heap from the add-on. */
  stamp(): unknown;
  /** What the other side stamped its message with. */
  onStamp(stamp: unknown): void;
}

/** Hearing nothing for this long while waiting for an answer means the other thread is gone. */
const QUIET_LIMIT_MS = 10 * 60_000;

type Callable = (...args: unknown[]) => unknown;

/** The root is offered under this id and never released. */
const ROOT = 0;

/** A stand-in the other side made of one of our objects, and how often it was sent. */
interface Exported {
  value: object;
  sent: number;
}

/** Our stand-in of one of theirs, and how often the reference arrived (released as a count). */
interface Imported {
  id: number;
  received: number;
  standIn: WeakRef<object>;
}

/** Methods found along the prototype chain, by prototype. */
const methodsByPrototype = new WeakMap<object, string[]>();

/**
 * Whether `proto` is some realm's Object.prototype, or null: values cloned by a MessagePort
 * belong to node's main realm, which is not the one a test runs in under jest.
 */
const isRootPrototype = (proto: object | null): boolean =>
  proto === null || Object.getPrototypeOf(proto) === null;

function prototypeMethods(proto: object | null): string[] {
  if (proto === null || isRootPrototype(proto)) return [];
  const known = methodsByPrototype.get(proto);
  if (known) return known;
  const own = Object.getOwnPropertyNames(proto).filter(name => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    return name !== 'constructor' && typeof d?.value === 'function';
  });
  const all = [
    ...new Set([...own, ...prototypeMethods(Object.getPrototypeOf(proto))]),
  ];
  methodsByPrototype.set(proto, all);
  return all;
}

function methodsOf(value: object): string[] {
  const own = Object.keys(value).filter(
    key => typeof (value as Record<string, unknown>)[key] === 'function',
  );
  return [...own, ...prototypeMethods(Object.getPrototypeOf(value))];
}

const isPlain = (value: object): boolean =>
  isRootPrototype(Object.getPrototypeOf(value));

/** Values structured clone copies whole and as they are. */
const clonesAsIs = (value: object): boolean =>
  types.isDate(value) ||
  types.isNativeError(value) ||
  types.isRegExp(value) ||
  types.isAnyArrayBuffer(value) ||
  ArrayBuffer.isView(value);

function isRef(value: unknown): value is Ref {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    REF in value
  );
}

function errorOf(e: unknown): SentError {
  if (typeof e === 'object' && e !== null && 'message' in e) {
    const error = e as Error;
    return {
      name: String(error.name || 'Error'),
      message: String(error.message),
      stack: error.stack,
    };
  }
  return {name: 'Error', message: String(e)};
}

export class Peer {
  private readonly exported = new Map<number, Exported>();
  private readonly exportIds = new Map<object, number>();
  private readonly imported = new Map<number, Imported>();
  /** Our stand-ins, to their ids on the other side. */
  private readonly standIns = new WeakMap<object, number>();
  private readonly finalizer = new FinalizationRegistry<Imported>(record => {
    if (this.imported.get(record.id) !== record) return;
    this.imported.delete(record.id);
    this.released.push([record.id, record.received]);
  });
  private released: Array<[number, number]> = [];
  private nextExport = ROOT + 1;
  private nextRequest = 1;

  constructor(private readonly options: PeerOptions) {
    if (options.root)
      this.exported.set(ROOT, {value: options.root, sent: Infinity});
  }

  /** The other side's root object (its `root` option), as a stand-in. */
  remoteRoot(): object {
    return this.resolve({[REF]: 'mine', id: ROOT, methods: []});
  }

  /** Runs one of the other side's `handlers`, waiting for its answer. */
  custom(name: string, ...args: unknown[]): unknown {
    return this.request({
      op: 'custom',
      name,
      args: this.encode(args) as unknown[],
    });
  }

  /**
   * Forgets every object either side sent and closes the port: a caller that drops the peer
   * then frees them, even while a thread's ending is still pending on its event loop.
   */
  close(): void {
    this.exported.clear();
    this.exportIds.clear();
    this.imported.clear();
    this.options.port.close();
  }

  /** Serves the other side's requests as they arrive while this thread is otherwise idle. */
  listen(): void {
    this.options.port.on('message', (message: Message) => {
      this.accept(message);
      if (message.kind === 'request') this.serve(message);
    });
  }

  private request(body: Operation): unknown {
    const id = this.nextRequest++;
    this.post({kind: 'request', id, body});
    for (;;) {
      const message = this.receive();
      if (message.kind === 'request') {
        this.serve(message);
        continue;
      }
      if (message.id !== id)
        throw new Error(`answer ${message.id} came while ${id} was awaited`);
      if (message.ok) return this.decode(message.value);
      throw Object.assign(new Error(message.error.message), message.error);
    }
  }

  private receive(): Message {
    const {signal, inbox, port} = this.options;
    // Real time: the add-on's Date reads the virtual clock, which stands still while it waits.
    const since = performance.now();
    for (;;) {
      const seen = Atomics.load(signal, inbox);
      const received = receiveMessageOnPort(port);
      if (received) {
        const message = received.message as Message;
        this.accept(message);
        return message;
      }
      if (performance.now() - since > QUIET_LIMIT_MS)
        throw new Error(
          `the other thread sent nothing for ${QUIET_LIMIT_MS} ms: it is gone`,
        );
      Atomics.wait(signal, inbox, seen, 1000);
    }
  }

  private accept(message: Message): void {
    this.options.onStamp(message.stamp);
    for (const [id, count] of message.released) {
      const entry = this.exported.get(id);
      if (!entry || (entry.sent -= count) > 0) continue;
      this.exported.delete(id);
      this.exportIds.delete(entry.value);
    }
  }

  private serve(message: Message & {kind: 'request'}): void {
    let answer: Body;
    try {
      answer = this.answer(message.id, this.perform(message.body));
    } catch (e) {
      answer = this.failure(message.id, e);
    }
    try {
      this.post(answer);
    } catch (e) {
      // A value structured clone cannot copy: the caller gets the error instead.
      this.post(this.failure(message.id, e));
    }
  }

  private answer(id: number, value: unknown): Body {
    return {kind: 'reply', id, ok: true, value: this.encode(value)};
  }

  private failure(id: number, e: unknown): Body {
    return {kind: 'reply', id, ok: false, error: errorOf(e)};
  }

  private perform(body: Operation): unknown {
    switch (body.op) {
      case 'call': {
        const target = this.local(body.target) as Record<string, Callable>;
        const args = this.decode(body.args) as unknown[];
        if (body.method === undefined)
          return Reflect.apply(target as unknown as Callable, undefined, args);
        return Reflect.apply(target[body.method], target, args);
      }
      case 'get':
        return (this.local(body.target) as Record<string, unknown>)[body.prop];
      case 'set':
        (this.local(body.target) as Record<string, unknown>)[body.prop] =
          this.decode(body.value);
        return undefined;
      case 'custom': {
        const handler = this.options.handlers?.[body.name];
        if (!handler) throw new Error(`no operation ${body.name}`);
        return handler(...(this.decode(body.args) as unknown[]));
      }
    }
  }

  private local(id: number): object {
    const entry = this.exported.get(id);
    if (!entry) throw new Error(`object ${id} was released`);
    return entry.value;
  }

  private post(message: Body): void {
    const {port, signal, inbox} = this.options;
    const released = this.released;
    this.released = [];
    port.postMessage({...message, released, stamp: this.options.stamp()});
    const outbox = 1 - inbox;
    Atomics.add(signal, outbox, 1);
    Atomics.notify(signal, outbox);
  }

  /** The value as it crosses: copied where it is data, referenced where it has behaviour. */
  private encode(value: unknown): unknown {
    if (typeof value === 'function') return this.reference(value);
    if (typeof value !== 'object' || value === null) return value;
    const standIn = this.standIns.get(value);
    if (standIn !== undefined) return {[REF]: 'yours', id: standIn};
    if (clonesAsIs(value)) return value;
    if (Array.isArray(value)) return this.encodeEach(value, value.keys());
    if (isPlain(value) && methodsOf(value).length === 0)
      return this.encodeEach(value, Object.keys(value));
    return this.reference(value);
  }

  /** Copies the container only when something in it had to change (a grid of cells never). */
  private encodeEach<T extends object>(
    container: T,
    keys: Iterable<number | string>,
  ): T {
    let copy: Record<number | string, unknown> | undefined;
    for (const key of keys) {
      const item = (container as Record<number | string, unknown>)[key];
      const encoded = this.encode(item);
      if (encoded === item) continue;
      copy ??= (
        Array.isArray(container) ? [...container] : {...container}
      ) as Record<number | string, unknown>;
      copy[key] = encoded;
    }
    return (copy ?? container) as T;
  }

  private reference(value: object): Ref {
    let id = this.exportIds.get(value);
    if (id === undefined) {
      id = this.nextExport++;
      this.exportIds.set(value, id);
      this.exported.set(id, {value, sent: 0});
    }
    this.exported.get(id)!.sent++;
    return typeof value === 'function'
      ? {[REF]: 'mine', id}
      : {[REF]: 'mine', id, methods: methodsOf(value)};
  }

  /** Replaces references in a freshly cloned value, in place. */
  private decode(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (isRef(value)) return this.resolve(value);
    if (!Array.isArray(value) && !isPlain(value)) return value;
    const container = value as Record<number | string, unknown>;
    const keys = Array.isArray(value) ? value.keys() : Object.keys(value);
    for (const key of keys) {
      const item = container[key];
      if (typeof item !== 'object' || item === null) continue;
      const decoded = this.decode(item);
      if (decoded !== item) container[key] = decoded;
    }
    return value;
  }

  private resolve(ref: Ref): object {
    if (ref[REF] === 'yours') return this.local(ref.id);
    const record = this.imported.get(ref.id);
    const known = record?.standIn.deref();
    if (record && known) {
      record.received++;
      return known;
    }
    const standIn = this.standIn(ref);
    const fresh: Imported = {
      id: ref.id,
      received: 1,
      standIn: new WeakRef(standIn),
    };
    this.imported.set(ref.id, fresh);
    this.standIns.set(standIn, ref.id);
    if (ref.id !== ROOT) this.finalizer.register(standIn, fresh);
    return standIn;
  }

  private standIn(ref: Ref): object {
    const target = ref.id;
    if (!ref.methods)
      return (...args: unknown[]) =>
        this.request({
          op: 'call',
          target,
          args: this.encode(args) as unknown[],
        });
    const methods = new Map<string, Callable>(
      ref.methods.map(method => [
        method,
        (...args: unknown[]) =>
          this.request({
            op: 'call',
            target,
            method,
            args: this.encode(args) as unknown[],
          }),
      ]),
    );
    return new Proxy(
      {},
      {
        get: (_, prop) => {
          if (typeof prop !== 'string') return undefined;
          return methods.get(prop) ?? this.request({op: 'get', target, prop});
        },
        set: (_, prop, value) => {
          if (typeof prop !== 'string') return false;
          this.request({op: 'set', target, prop, value: this.encode(value)});
          return true;
        },
        has: (_, prop) =>
          typeof prop === 'string' &&
          (methods.has(prop) ||
            this.request({op: 'get', target, prop}) !== undefined),
      },
    );
  }
}
