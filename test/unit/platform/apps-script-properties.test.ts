/**
 * The user's properties as the Apps Script platform gives them to a job: read whole in one
 * call, kept for the entry point call with its own writes, and read afresh once the document
 * lock is held (what the execution before wrote while this one waited) or released (what
 * another wrote while this one held it). Apps Script's
 * PropertiesService and LockService are stood in for by counting fakes.
 */
import {appsScriptPlatform} from '../../../src/platform/apps-script';

const stored = new Map<string, string>();
let calls: string[] = [];

const properties = {
  getProperties: () => {
    calls.push('getProperties');
    return Object.fromEntries(stored);
  },
  getProperty: (key: string) => {
    calls.push(`getProperty ${key}`);
    return stored.get(key) ?? null;
  },
  setProperty: (key: string, value: string) => {
    calls.push(`setProperty ${key}`);
    stored.set(key, value);
    return properties;
  },
  deleteProperty: (key: string) => {
    calls.push(`deleteProperty ${key}`);
    stored.delete(key);
    return properties;
  },
  getKeys: () => [...stored.keys()],
};

Object.assign(globalThis, {
  PropertiesService: {getUserProperties: () => properties},
  LockService: {
    getDocumentLock: () => ({tryLock: () => true, releaseLock: () => {}}),
  },
});

beforeEach(() => {
  stored.clear();
  stored.set('a', '1');
  stored.set('b', '2');
  calls = [];
});

describe("the platform's user properties", () => {
  it("are read in one call, then served with the call's own writes", () => {
    const {userProperties} = appsScriptPlatform();
    expect(userProperties.get('a')).toBe('1');
    expect(userProperties.get('b')).toBe('2');
    expect(userProperties.get('c')).toBeNull();
    userProperties.set('c', '3');
    userProperties.remove('a');
    expect(userProperties.get('c')).toBe('3');
    expect(userProperties.get('a')).toBeNull();
    expect(userProperties.all()).toEqual({b: '2', c: '3'});
    expect(calls).toEqual([
      'getProperties',
      'setProperty c',
      'deleteProperty a',
    ]);
  });

  it('are read afresh once the document lock is held or released, and by the next entry point call', () => {
    const platform = appsScriptPlatform();
    expect(platform.userProperties.get('a')).toBe('1');
    // Another execution writes while this one waits for the lock.
    stored.set('a', 'rotated');
    expect(platform.userProperties.get('a')).toBe('1');
    const lock = platform.documentLock()!;
    expect(lock.tryAcquire(1000)).toBe(true);
    expect(platform.userProperties.get('a')).toBe('rotated');
    // The sidebar, which takes no lock, writes while this one holds it.
    stored.set('a', 'turned off');
    expect(platform.userProperties.get('a')).toBe('rotated');
    lock.release();
    expect(platform.userProperties.get('a')).toBe('turned off');
    stored.set('b', 'later');
    expect(appsScriptPlatform().userProperties.get('b')).toBe('later');
    expect(calls).toEqual([
      'getProperties',
      'getProperties',
      'getProperties',
      'getProperties',
    ]);
  });
});
