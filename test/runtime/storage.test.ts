import {createRuntime} from '../../local/runtime';

describe('PropertiesService', () => {
  it("keeps script, document and each user's properties apart", () => {
    const rt = createRuntime({
      distDir: null,
      users: ['ann@example.com', 'bob@example.com'],
    });
    const P = rt.globals.PropertiesService;
    P.getUserProperties().setProperty('apiKey', 'ann-key');
    P.getDocumentProperties().setProperty('apiKey', 'doc');
    expect(P.getScriptProperties().getProperty('apiKey')).toBeNull();
    expect(P.getUserProperties().getProperty('apiKey')).toBe('ann-key');
    rt.setUser('bob@example.com');
    expect(P.getUserProperties().getProperty('apiKey')).toBeNull();
    expect(P.getDocumentProperties().getProperty('apiKey')).toBe('doc');
    expect(rt.properties.user('ann@example.com').toObject()).toEqual({
      apiKey: 'ann-key',
    });
  });

  it('stores strings only', () => {
    const rt = createRuntime({distDir: null});
    const props = rt.globals.PropertiesService.getScriptProperties();
    props.setProperties({n: 5, b: true, o: {a: 1}});
    expect(props.getProperties()).toEqual({
      n: '5',
      b: 'true',
      o: '[object Object]',
    });
    props.setProperties({only: 'this'}, true);
    expect(props.getKeys()).toEqual(['only']);
    props.deleteAllProperties();
    expect(props.getKeys()).toEqual([]);
  });

  it('limits a value to 9 KB and a store to 500 KB, changing nothing when refused', () => {
    const rt = createRuntime({distDir: null});
    const props = rt.globals.PropertiesService.getUserProperties();
    props.setProperty('max', 'x'.repeat(9 * 1024));
    expect(() => props.setProperty('big', 'x'.repeat(9 * 1024 + 1))).toThrow(
      'Argument too large: value',
    );
    let n = 0;
    expect(() => {
      for (; ; n++) props.setProperty(`k${n}`, 'y'.repeat(9000));
    }).toThrow(
      'You have exceeded the property storage quota. Please remove some properties and try again.',
    );
    expect(n).toBe(55);
    expect(() => props.setProperties({a: 'y'.repeat(9000), b: 'z'})).toThrow(
      'property storage quota',
    );
    expect(props.getProperty('b')).toBeNull();
    expect(rt.snapshot().counts['PropertiesService.writes']).toBeGreaterThan(
      50,
    );
  });
});

describe('CacheService', () => {
  it('expires entries on the virtual clock and can evict everything', () => {
    const rt = createRuntime({distDir: null});
    const cache = rt.globals.CacheService.getUserCache();
    cache.put('a', 'x', 60);
    cache.put('b', 'y');
    rt.clock.advance(59000);
    expect(cache.getAll(['a', 'b', 'c'])).toEqual({a: 'x', b: 'y'});
    rt.clock.advance(1000);
    expect(cache.get('a')).toBeNull();
    expect(cache.get('b')).toBe('y');
    rt.caches.evicting = true;
    expect(cache.get('b')).toBeNull();
    rt.caches.evicting = false;
    expect(cache.get('b')).toBe('y');
    rt.clock.advance(540000);
    expect(cache.get('b')).toBeNull();
  });

  it('limits keys, values and lifetimes', () => {
    const rt = createRuntime({distDir: null});
    const cache = rt.globals.CacheService.getScriptCache();
    expect(() => cache.put('k'.repeat(251), 'v')).toThrow(
      'Argument too large: key',
    );
    expect(() => cache.put('k', 'v'.repeat(100 * 1024 + 1))).toThrow(
      'Argument too large: value',
    );
    expect(() => cache.put('k', 'v', 21601)).toThrow(
      'Invalid argument: expirationInSeconds',
    );
    cache.put('k', 'v', 21600);
    expect(rt.globals.CacheService.getDocumentCache().get('k')).toBeNull();
  });
});

describe('LockService', () => {
  it('holds a lock only after tryLock or waitLock succeeds', () => {
    const rt = createRuntime({distDir: null});
    const lock = rt.globals.LockService.getDocumentLock();
    expect(lock.hasLock()).toBe(false);
    expect(lock.tryLock(0)).toBe(true);
    expect(lock.hasLock()).toBe(true);
    lock.releaseLock();
    expect(lock.hasLock()).toBe(false);
  });

  it('waits on the virtual clock while another execution holds the lock', () => {
    const rt = createRuntime({distDir: null});
    const lock = rt.globals.LockService.getDocumentLock();
    const t0 = rt.clock.now();
    rt.locks.holdByOther('document', t0 + 20000);
    expect(lock.tryLock(5000)).toBe(false);
    expect(rt.clock.now() - t0).toBeGreaterThanOrEqual(5000);
    expect(() => lock.waitLock(1000)).toThrow(
      'Lock timeout: another process was holding the lock for too long.',
    );
    expect(lock.tryLock(30000)).toBe(true);
    expect(rt.clock.now()).toBeGreaterThanOrEqual(t0 + 20000);
    expect(rt.clock.now()).toBeLessThan(t0 + 21000);
    expect(rt.globals.LockService.getScriptLock().tryLock(0)).toBe(true);
  });

  it('keeps the lock taken until a test releases it, and frees what an execution held when it ends', () => {
    const rt = createRuntime({distDir: null});
    rt.locks.holdByOther('document');
    rt.load(
      `function job() { var l = LockService.getDocumentLock(); return l.tryLock(10000); }
      function keep() { LockService.getScriptLock().waitLock(1000); return 'kept'; }`,
      'fixture.js',
    );
    expect(rt.run('job')).toBe(false);
    rt.locks.releaseOther('document');
    expect(rt.run('job')).toBe(true);
    expect(rt.run('keep')).toBe('kept');
    expect(rt.locks.holder('script', rt.clock.now())).toBeUndefined();
  });
});
