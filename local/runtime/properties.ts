import {Env} from './env';

const VALUE_LIMIT_BYTES = 9 * 1024;
const STORE_LIMIT_BYTES = 500 * 1024;

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

/** One property store's data: strings only, as Apps Script keeps them. */
export class PropertyStore {
  readonly map = new Map<string, string>();

  bytes(): number {
    let total = 0;
    for (const [k, v] of this.map) total += utf8Length(k) + utf8Length(v);
    return total;
  }

  /** A plain copy, for tests. */
  toObject(): Record<string, string> {
    return Object.fromEntries(this.map);
  }
}

/** Script, document and per-user stores: three separate places, as in Apps Script. */
export class PropertyStores {
  readonly script = new PropertyStore();
  readonly document = new PropertyStore();
  private readonly users = new Map<string, PropertyStore>();

  user(email: string): PropertyStore {
    let store = this.users.get(email);
    if (!store) {
      store = new PropertyStore();
      this.users.set(email, store);
    }
    return store;
  }
}

/** A Properties object the add-on holds. */
class FakeProperties {
  constructor(
    private readonly env: Env,
    private readonly store: PropertyStore,
  ) {}

  getProperty(key: string): string | null {
    this.read('getProperty');
    return this.store.map.get(String(key)) ?? null;
  }

  getProperties(): Record<string, string> {
    this.read('getProperties');
    return this.env.realm.object(this.store.toObject());
  }

  getKeys(): string[] {
    this.read('getKeys');
    return this.env.realm.array([...this.store.map.keys()]);
  }

  setProperty(key: string, value: unknown): FakeProperties {
    this.write('setProperty');
    this.apply([[this.key(key), this.value(value)]], false);
    return this;
  }

  setProperties(
    properties: Record<string, unknown>,
    deleteAllOthers = false,
  ): FakeProperties {
    this.write('setProperties');
    if (properties === null || typeof properties !== 'object') {
      this.env.fail('Invalid argument: properties');
    }
    const entries = Object.keys(properties).map(
      k => [this.key(k), this.value(properties[k])] as [string, string],
    );
    this.apply(entries, deleteAllOthers);
    return this;
  }

  deleteProperty(key: string): FakeProperties {
    this.write('deleteProperty');
    this.store.map.delete(String(key));
    return this;
  }

  deleteAllProperties(): FakeProperties {
    this.write('deleteAllProperties');
    this.store.map.clear();
    return this;
  }

  /** All or nothing: a write that would break the store's quota changes nothing. */
  private apply(entries: [string, string][], deleteAllOthers: boolean): void {
    const next = new Map(deleteAllOthers ? [] : this.store.map);
    for (const [k, v] of entries) next.set(k, v);
    let total = 0;
    for (const [k, v] of next) total += utf8Length(k) + utf8Length(v);
    if (total > STORE_LIMIT_BYTES) {
      this.env.fail(
        'You have exceeded the property storage quota. Please remove some properties and try again.',
      );
    }
    this.store.map.clear();
    for (const [k, v] of next) this.store.map.set(k, v);
  }

  private key(key: unknown): string {
    if (key === null || key === undefined || String(key) === '') {
      this.env.fail('Invalid argument: key');
    }
    return String(key);
  }

  private value(value: unknown): string {
    if (value === null || value === undefined)
      this.env.fail('Invalid argument: value');
    const text = String(value);
    if (utf8Length(text) > VALUE_LIMIT_BYTES)
      this.env.fail('Argument too large: value');
    return text;
  }

  private read(method: string): void {
    this.env.call('PropertiesService', `Properties.${method}`);
    this.env.meter.add('PropertiesService.reads');
  }

  private write(method: string): void {
    this.env.call('PropertiesService', `Properties.${method}`);
    this.env.meter.add('PropertiesService.writes');
  }
}

export class FakePropertiesService {
  constructor(
    private readonly env: Env,
    private readonly stores: PropertyStores,
  ) {}

  getScriptProperties(): FakeProperties {
    this.env.call('PropertiesService', 'PropertiesService.getScriptProperties');
    return new FakeProperties(this.env, this.stores.script);
  }

  getDocumentProperties(): FakeProperties {
    this.env.call(
      'PropertiesService',
      'PropertiesService.getDocumentProperties',
    );
    return new FakeProperties(this.env, this.stores.document);
  }

  getUserProperties(): FakeProperties {
    this.env.call('PropertiesService', 'PropertiesService.getUserProperties');
    return new FakeProperties(this.env, this.stores.user(this.env.user));
  }
}
