import {Env} from './env';

const LOCK_TIMEOUT =
  'Lock timeout: another process was holding the lock for too long.';

type Holder = {execution: number} | {otherUntilMs: number};

/** Who holds each lock: an execution of ours, or "another execution" a test set up. */
export class LockTable {
  private readonly holders = new Map<string, Holder>();

  /**
   * Marks the lock as held by another execution until virtual time `untilMs` (forever if
   * omitted); waiting for it advances the virtual clock. Keys: 'document', 'script', 'user:<email>'.
   */
  holdByOther(key: string, untilMs = Infinity): void {
    this.holders.set(key, {otherUntilMs: untilMs});
  }

  releaseOther(key: string): void {
    const h = this.holders.get(key);
    if (h && 'otherUntilMs' in h) this.holders.delete(key);
  }

  /** Apps Script releases what an execution still holds when it ends. */
  releaseExecution(id: number): void {
    for (const [key, h] of this.holders) {
      if ('execution' in h && h.execution === id) this.holders.delete(key);
    }
  }

  holder(key: string, nowMs: number): Holder | undefined {
    const h = this.holders.get(key);
    if (h && 'otherUntilMs' in h && h.otherUntilMs <= nowMs) {
      this.holders.delete(key);
      return undefined;
    }
    return h;
  }

  take(key: string, execution: number): void {
    this.holders.set(key, {execution});
  }

  drop(key: string): void {
    this.holders.delete(key);
  }
}

class FakeLock {
  constructor(
    private readonly env: Env,
    private readonly table: LockTable,
    private readonly key: string,
  ) {}

  tryLock(timeoutInMillis: number): boolean {
    this.env.call('LockService', 'Lock.tryLock');
    return this.acquire(timeoutInMillis);
  }

  waitLock(timeoutInMillis: number): void {
    this.env.call('LockService', 'Lock.waitLock');
    if (!this.acquire(timeoutInMillis)) this.env.fail(LOCK_TIMEOUT);
  }

  releaseLock(): void {
    this.env.call('LockService', 'Lock.releaseLock');
    if (this.mine()) this.table.drop(this.key);
  }

  hasLock(): boolean {
    this.env.call('LockService', 'Lock.hasLock');
    return this.mine();
  }

  private self(): number {
    // Outside any execution (a test poking the fakes) counts as execution 0.
    return this.env.execution?.id ?? 0;
  }

  private mine(): boolean {
    const h = this.table.holder(this.key, this.env.clock.now());
    return h !== undefined && 'execution' in h && h.execution === this.self();
  }

  /** Waits on the virtual clock until the other holder lets go or the timeout passes. */
  private acquire(timeoutInMillis: number): boolean {
    if (typeof timeoutInMillis !== 'number' || !(timeoutInMillis >= 0)) {
      this.env.fail('Invalid argument: timeoutInMillis');
    }
    const now = this.env.clock.now();
    const h = this.table.holder(this.key, now);
    if (h && 'execution' in h && h.execution !== this.self()) {
      // Another of our own executions cannot be running at the same time here; treat it as gone.
      this.table.drop(this.key);
    } else if (h && 'otherUntilMs' in h) {
      if (h.otherUntilMs > now + timeoutInMillis) {
        this.env.clock.advance(timeoutInMillis);
        return false;
      }
      this.env.clock.advanceTo(h.otherUntilMs);
    }
    this.table.take(this.key, this.self());
    return true;
  }
}

export class FakeLockService {
  constructor(
    private readonly env: Env,
    private readonly table: LockTable,
  ) {}

  /**
   * Null outside a document's context: a trigger run without it (Runtime.triggerContext).
   * Typed as never null for the tests, which call it outside any execution, where it never is.
   */
  getDocumentLock(): FakeLock {
    this.env.call('LockService', 'LockService.getDocumentLock');
    if (this.env.inTriggerWithout('documentLock')) return null as never;
    return new FakeLock(this.env, this.table, 'document');
  }

  getScriptLock(): FakeLock {
    this.env.call('LockService', 'LockService.getScriptLock');
    return new FakeLock(this.env, this.table, 'script');
  }

  getUserLock(): FakeLock {
    this.env.call('LockService', 'LockService.getUserLock');
    return new FakeLock(this.env, this.table, `user:${this.env.user}`);
  }
}
