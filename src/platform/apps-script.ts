/**
 * The adapters from ports.ts over Apps Script's globals. Every global is read when a method
 * runs, never when the bundle loads: in AuthMode.NONE (onOpen before authorisation) touching
 * a service throws.
 */
import {bytesToHex} from './digest';
import {materialFiles} from './files';
import {cacheProgressBoard} from './progress';
import {activeDocument, activeWorkbook} from './spreadsheet';
import {appsScriptTriggers} from './triggers';
import {appsScriptUi} from './ui';
import type {
  Authorization,
  Cache,
  Clock,
  Digest,
  DocumentLock,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  Identity,
  KeyValueStore,
  Mailer,
  Platform,
} from './ports';

type FetchOptions = GoogleAppsScript.URL_Fetch.URLFetchRequestOptions;

function fetchOptions(request: HttpRequest): FetchOptions {
  const options: FetchOptions = {
    method: request.method,
    headers: request.headers,
    // Error statuses are answers to read, not exceptions: the envelope carries the reason.
    muteHttpExceptions: true,
  };
  if (request.json !== undefined) {
    options.contentType = 'application/json';
    options.payload = request.json;
  }
  if (request.file !== undefined) {
    // A payload object holding a Blob is sent as multipart/form-data.
    options.payload = {file: request.file as GoogleAppsScript.Base.Blob};
  }
  return options;
}

function toResponse(
  response: GoogleAppsScript.URL_Fetch.HTTPResponse,
): HttpResponse {
  const headers: Record<string, string> = {};
  const raw = response.getAllHeaders() as Record<string, string | string[]>;
  for (const [name, value] of Object.entries(raw)) {
    headers[name.toLowerCase()] = Array.isArray(value)
      ? value.join(', ')
      : String(value);
  }
  return {
    status: response.getResponseCode(),
    headers,
    text: response.getContentText('UTF-8'),
  };
}

export const urlFetchTransport: HttpTransport = {
  send(request) {
    return toResponse(UrlFetchApp.fetch(request.url, fetchOptions(request)));
  },
  sendAll(requests) {
    const batch = requests.map(r => ({url: r.url, ...fetchOptions(r)}));
    return UrlFetchApp.fetchAll(batch).map(toResponse);
  },
};

export const utilitiesDigest: Digest = {
  md5Hex(text) {
    return bytesToHex(
      Utilities.computeDigest(
        Utilities.DigestAlgorithm.MD5,
        text,
        Utilities.Charset.UTF_8,
      ),
    );
  },
  md5OfBytes(bytes) {
    return bytesToHex(
      Utilities.computeDigest(Utilities.DigestAlgorithm.MD5, bytes),
    );
  },
};

export const appsScriptClock: Clock = {
  now: () => Date.now(),
  sleep: ms => Utilities.sleep(Math.max(0, Math.round(ms))),
};

/**
 * A property store read whole the first time (getProperties, one call), then kept for the
 * entry point call with its own writes: each getProperty is a round trip of its own, and a
 * job asks for some twenty (the connection, settings, every sub-account's keys). `forget`
 * drops what was read: the document lock calls it once held, so what the execution before
 * wrote while this one waited (keys looked up again, an alert mailed) is read afresh; and
 * once released, so what another execution wrote during the job (the sidebar turning the
 * schedule off) is what the call's writes after it (a scheduled run's record) build on.
 */
function propertyStore(
  open: () => GoogleAppsScript.Properties.Properties,
): KeyValueStore & {forget(): void} {
  let read: Record<string, string> | undefined;
  const all = () => (read ??= {...open().getProperties()});
  return {
    forget: () => {
      read = undefined;
    },
    get: key => all()[key] ?? null,
    set: (key, value) => {
      open().setProperty(key, value);
      if (read) read[key] = value;
    },
    remove: key => {
      open().deleteProperty(key);
      if (read) delete read[key];
    },
    keys: () => Object.keys(all()),
    all: () => ({...all()}),
  };
}

/**
 * A service handle asked for the first time it is needed, then kept for the entry point
 * call: each getUserProperties or getUserCache is a service call of its own.
 */
function once<T>(get: () => T): () => T {
  let handle: {value: T} | undefined;
  return () => (handle ??= {value: get()}).value;
}

/**
 * Null outside a document's context, as LockService answers there. `stale` is told when the
 * lock is acquired or released: what was read before may have changed since.
 */
function documentLock(stale: () => void): DocumentLock | null {
  const lock = LockService.getDocumentLock();
  if (!lock) return null;
  return {
    tryAcquire: timeoutMs => {
      const got = lock.tryLock(timeoutMs);
      if (got) stale();
      return got;
    },
    release: () => {
      lock.releaseLock();
      stale();
    },
  };
}

/**
 * The active user's email; in a trigger, whoever set it (the effective user). Apps Script
 * answers '' where policy hides the identity, and throws where a scope is missing: both are
 * "not known", never a failed job.
 */
export const sessionIdentity: Identity = {
  email() {
    try {
      return (
        Session.getActiveUser().getEmail() ||
        Session.getEffectiveUser().getEmail() ||
        ''
      );
    } catch {
      return '';
    }
  },
  oauthToken: () => ScriptApp.getOAuthToken(),
};

/** What Google says of the user's authorization for everything the add-on needs (FULL). */
export const scriptAuthorization: Authorization = {
  required: () =>
    ScriptApp.getAuthorizationInfo(
      ScriptApp.AuthMode.FULL,
    ).getAuthorizationStatus() === ScriptApp.AuthorizationStatus.REQUIRED,
  url: () =>
    ScriptApp.getAuthorizationInfo(
      ScriptApp.AuthMode.FULL,
    ).getAuthorizationUrl() || null,
};

/** No cache at all: what a job reports is simply not seen. */
const noCache: Cache = {get: () => null, put: () => {}, remove: () => {}};

export const mailApp: Mailer = {
  remainingDailyQuota: () => MailApp.getRemainingDailyQuota(),
  send: (to, subject, body) => MailApp.sendEmail(to, subject, body),
};

/**
 * The platform for one entry point call. Apps Script starts every execution afresh, so
 * nothing here outlives the call; within it, the document is looked up once.
 */
export function appsScriptPlatform(): Platform {
  const document = activeDocument();
  const userCache = once(() => CacheService.getUserCache());
  const userProperties = propertyStore(
    once(() => PropertiesService.getUserProperties()),
  );
  return {
    http: urlFetchTransport,
    digest: utilitiesDigest,
    clock: appsScriptClock,
    random: () => Math.random(),
    // The current user's own properties: the only place the add-on keeps keys.
    userProperties,
    documentId: document.id,
    activeDocumentId: document.idIfAny,
    documentLock: () => documentLock(userProperties.forget),
    // The document cache, so every editor's sidebar sees the job; none outside a document.
    progress: cacheProgressBoard(
      () => CacheService.getDocumentCache() ?? noCache,
      document.id,
      () => Date.now(),
    ),
    userCache: {
      get: key => userCache().get(key),
      put: (key, value, ttlSeconds) => userCache().put(key, value, ttlSeconds),
      remove: key => userCache().remove(key),
    },
    ui: appsScriptUi(document),
    triggers: appsScriptTriggers,
    files: materialFiles,
    identity: sessionIdentity,
    authorization: scriptAuthorization,
    mail: mailApp,
    workbook: () => activeWorkbook(document),
  };
}
