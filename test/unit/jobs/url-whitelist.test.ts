import {
  matchesWhitelistEntry,
  urlWhitelistProblem,
} from '../../../src/jobs/url-whitelist';

describe('urlFetchWhitelist matching, by Google rules', () => {
  it('allows https only, for the URL and for the entry', () => {
    expect(
      matchesWhitelistEntry(
        'https://api.example.com/',
        'https://api.example.com/v3',
      ),
    ).toBe(true);
    expect(
      matchesWhitelistEntry(
        'https://api.example.com/',
        'http://api.example.com/v3',
      ),
    ).toBe(false);
    expect(
      matchesWhitelistEntry(
        'http://api.example.com/',
        'http://api.example.com/v3',
      ),
    ).toBe(false);
  });

  it('matches a *. host wildcard on any subdomain, not on the bare domain', () => {
    expect(
      matchesWhitelistEntry(
        'https://*.example.com/',
        'https://api.example.com/x',
      ),
    ).toBe(true);
    expect(
      matchesWhitelistEntry(
        'https://*.example.com/',
        'https://a.b.example.com/x',
      ),
    ).toBe(true);
    expect(
      matchesWhitelistEntry('https://*.example.com/', 'https://example.com/x'),
    ).toBe(false);
    expect(
      matchesWhitelistEntry(
        'https://*.example.com/',
        'https://badexample.com/x',
      ),
    ).toBe(false);
  });

  it('matches a prefix on itself and its child paths only', () => {
    expect(
      matchesWhitelistEntry('https://a.com/api/', 'https://a.com/api/x'),
    ).toBe(true);
    expect(
      matchesWhitelistEntry('https://a.com/api/', 'https://a.com/api'),
    ).toBe(true);
    expect(
      matchesWhitelistEntry('https://a.com/api/', 'https://a.com/api/'),
    ).toBe(true);
    expect(
      matchesWhitelistEntry('https://a.com/api/', 'https://a.com/apix'),
    ).toBe(false);
    expect(
      matchesWhitelistEntry('https://a.com/api', 'https://a.com/apix'),
    ).toBe(false);
    expect(
      matchesWhitelistEntry('https://a.com/api', 'https://a.com/api/v3/offers'),
    ).toBe(true);
    expect(
      matchesWhitelistEntry('https://a.com/api/', 'https://a.com/other'),
    ).toBe(false);
  });

  it('compares paths with case and hosts without', () => {
    expect(
      matchesWhitelistEntry('https://a.com/API/', 'https://a.com/api/x'),
    ).toBe(false);
    expect(
      matchesWhitelistEntry('https://A.com/api/', 'https://a.COM/api/x'),
    ).toBe(true);
  });

  it('does not let a longer host pass as the entry host', () => {
    expect(
      matchesWhitelistEntry('https://a.com/', 'https://a.com.evil.net/'),
    ).toBe(false);
    expect(matchesWhitelistEntry('https://a.com/', 'https://a.com:8443/')).toBe(
      false,
    );
  });

  it('refuses a URL no entry matches, naming the list; no list allows all', () => {
    const list = [
      'https://*.example.com/',
      'https://storage.vendor.io/upload/',
    ];
    expect(
      urlWhitelistProblem('https://api.example.com/open/v3', list),
    ).toBeUndefined();
    expect(
      urlWhitelistProblem('https://storage.vendor.io/upload', list),
    ).toBeUndefined();
    expect(urlWhitelistProblem('https://storage.vendor.io/uploads', list)).toBe(
      'is not among the URLs this add-on may call (https://*.example.com/, https://storage.vendor.io/upload/)',
    );
    expect(urlWhitelistProblem('http://anything.test/', [])).toBeUndefined();
  });
});
