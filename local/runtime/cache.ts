import {Env} from './env';

const VALUE_LIMIT_BYTES = 100 * 1024;
const KEY_LIMIT_CHARS = 250;
const DEFAULT_SECONDS = 600;
const MAX_SECONDS = 21600;

interface Entry {
  value: string;
  expiresAtMs: number;
}

/** One cache's entries, expiring on the virtual clock. */
export class CacheStore {
  readonly entries = new Map<string, Entry>();
}

/** Script, document and per-user caches, and the switch that makes every read miss. */
export class CacheStores {
  readonly script = new CacheStore();
  readonly document = new CacheStore();
  private readonly users = new Map<string, CacheStore>();
  /** While true every get returns null, as when Google evicts entries early. */
  evicting = false;

  user(email: string): CacheStore {
    let store = this.users.get(email);
    if (!store) {
      store = new CacheStore();
      this.users.set(email, store);
    }
    return store;
  }
}

class FakeCache {
  constructor(
    private readonly env: Env,
    private readonly stores: CacheStores,
    private readonly store: CacheStore,
  ) {}

  get(key: string): string | null {
    this.env.call('CacheService', 'Cache.get');
    return this.lookup(this.key(key));
  }

  getAll(keys: string[]): Record<string, string> {
    this.env.call('CacheService', 'Cache.getAll');
    if (!Array.isArray(keys)) this.env.fail('Invalid argument: keys');
    const found: Record<string, string> = {};
    for (const k of keys) {
      const value = this.lookup(this.key(k));
      if (value !== null) found[String(k)] = value;
    }
    return this.env.realm.object(found);
  }

  put(key: string, value: unknown, expirationInSeconds?: number): void {
    this.env.call('CacheService', 'Cache.put');
    this.store.entries.set(
      this.key(key),
      this.entry(value, expirationInSeconds),
    );
  }

  putAll(values: Record<string, unknown>, expirationInSeconds?: number): void {
    this.env.call('CacheService', 'Cache.putAll');
    if (values === null || typeof values !== 'object')
      this.env.fail('Invalid argument: values');
    const entries = Object.keys(values).map(
      k => [this.key(k), this.entry(values[k], expirationInSeconds)] as const,
    );
    for (const [k, e] of entries) this.store.entries.set(k, e);
  }

  remove(key: string): void {
    this.env.call('CacheService', 'Cache.remove');
    this.store.entries.delete(this.key(key));
  }

  removeAll(keys: string[]): void {
    this.env.call('CacheService', 'Cache.removeAll');
    if (!Array.isArray(keys)) this.env.fail('Invalid argument: keys');
    for (const k of keys) this.store.entries.delete(this.key(k));
  }

  private lookup(key: string): string | null {
    const entry = this.store.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAtMs <= this.env.clock.now()) {
      this.store.entries.delete(key);
      return null;
    }
    return this.stores.evicting ? null : entry.value;
  }

  private key(key: unknown): string {
    const text = String(key);
    if (key === null || key === undefined || text === '')
      this.env.fail('Invalid argument: key');
    if (text.length > KEY_LIMIT_CHARS) this.env.fail('Argument too large: key');
    return text;
  }

  private entry(value: unknown, seconds: number | undefined): Entry {
    if (value === null || value === undefined)
      this.env.fail('Invalid argument: value');
    const text = String(value);
    if (Buffer.byteLength(text, 'utf8') > VALUE_LIMIT_BYTES) {
      this.env.fail('Argument too large: value');
    }
    const ttl = seconds ?? DEFAULT_SECONDS;
    if (typeof ttl !== 'number' || !(ttl >= 1) || ttl > MAX_SECONDS) {
      this.env.fail('Invalid argument: expirationInSeconds');
    }
    return {
      value: text,
      expiresAtMs: this.env.clock.now() + Math.floor(ttl) * 1000,
    };
  }
}

export class FakeCacheService {
  constructor(
    private readonly env: Env,
    private readonly stores: CacheStores,
  ) {}

  getScriptCache(): FakeCache {
    this.env.call('CacheService', 'CacheService.getScriptCache');
    return new FakeCache(this.env, this.stores, this.stores.script);
  }

  getDocumentCache(): FakeCache {
    this.env.call('CacheService', 'CacheService.getDocumentCache');
    return new FakeCache(this.env, this.stores, this.stores.document);
  }

  getUserCache(): FakeCache {
    this.env.call('CacheService', 'CacheService.getUserCache');
    return new FakeCache(
      this.env,
      this.stores,
      this.stores.user(this.env.user),
    );
  }
}
