import {
  KEPT_SPREADSHEETS,
  SettingsStore,
  fitsProperty,
  utf8Bytes,
} from '../../../src/jobs/settings-store';
import {MemoryStore} from '../../support/fakes';

/** A store that refuses, as Apps Script does, a write past `limit` bytes (keys counted). */
class BoundedStore extends MemoryStore {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: string, value: string): void {
    const others = [...this.values]
      .filter(([k]) => k !== key)
      .reduce((n, [k, v]) => n + utf8Bytes(k) + utf8Bytes(v), 0);
    if (others + utf8Bytes(key) + utf8Bytes(value) > this.limit) {
      throw new Error(
        'You have exceeded the property storage quota. Please remove some properties and try again.',
      );
    }
    super.set(key, value);
  }
}

describe('the size of a property', () => {
  it('counts UTF-8 bytes, as Google does', () => {
    expect(utf8Bytes('abc')).toBe(3);
    expect(utf8Bytes('é')).toBe(2);
    expect(utf8Bytes('€')).toBe(3);
    expect(utf8Bytes('😀')).toBe(4);
    expect(utf8Bytes('\ud800')).toBe(3);
  });

  it('counts the key with its value against 9 KB', () => {
    expect(fitsProperty('k', 'x'.repeat(9 * 1024 - 1))).toBe(true);
    expect(fitsProperty('kk', 'x'.repeat(9 * 1024 - 1))).toBe(false);
    // 3,072 euro signs are 9 KB in UTF-8, though 3,072 characters.
    expect(fitsProperty('k', '€'.repeat(3072))).toBe(false);
  });
});

describe('what is kept per spreadsheet', () => {
  it(`is forgotten for the spreadsheets used longest ago, past ${KEPT_SPREADSHEETS}, never for one with a schedule`, () => {
    const props = new MemoryStore();
    const store = new SettingsStore(props);
    store.setSchedule('sheet-0', {hours: 4, job: 'refreshAll'});
    for (let n = 0; n <= KEPT_SPREADSHEETS; n++) {
      store.setSidebarState(`sheet-${n}`, '{"version":1,"lastJob":null}');
    }
    // sheet-0 is the oldest, but scheduled: sheet-1 went instead.
    expect(store.schedule('sheet-0')).toEqual({hours: 4, job: 'refreshAll'});
    expect(store.sidebarState('sheet-0')).not.toBeNull();
    expect(store.sidebarState('sheet-1')).toBeNull();
    expect(store.sidebarState('sheet-2')).not.toBeNull();
    expect(
      props.keys().filter(k => k.startsWith('offerDesk.sidebarState.')),
    ).toHaveLength(KEPT_SPREADSHEETS);
  });

  it('never sends a value past 9 KB: it answers that it was not kept', () => {
    const props = new MemoryStore();
    const store = new SettingsStore(props);
    expect(store.setSidebarState('sheet', '€'.repeat(3072))).toBe(false);
    expect(props.keys()).toEqual([]);
  });

  it('makes room in a full store by forgetting the oldest spreadsheet first, not the current one', () => {
    const props = new BoundedStore(1700);
    const store = new SettingsStore(props);
    const record = 'r'.repeat(400);
    expect(
      store.setLastScheduledRun('a', {at: 1, outcome: 'ok', message: record}),
    ).toBe(true);
    expect(
      store.setLastScheduledRun('b', {at: 1, outcome: 'ok', message: record}),
    ).toBe(true);
    expect(
      store.setLastScheduledRun('c', {at: 1, outcome: 'ok', message: record}),
    ).toBe(true);
    expect(
      store.setLastScheduledRun('d', {at: 1, outcome: 'ok', message: record}),
    ).toBe(true);
    expect(store.lastScheduledRun('a')).toBeUndefined();
    expect(store.lastScheduledRun('b')).toBeDefined();
    expect(store.lastScheduledRun('d')).toBeDefined();
  });

  it('answers false when nothing can be forgotten, and throws for a user action', () => {
    const props = new BoundedStore(300);
    const store = new SettingsStore(props);
    expect(
      store.setLastScheduledRun('a', {
        at: 1,
        outcome: 'ok',
        message: 'r'.repeat(400),
      }),
    ).toBe(false);
    expect(() => store.setActingAccount('a', 'x'.repeat(400))).toThrow(
      "The account to act as was not saved: your Google account's storage for Offer Desk is full (500 KB of user properties). Turn off scheduled refreshes of spreadsheets you no longer use, then try again.",
    );
  });
});
