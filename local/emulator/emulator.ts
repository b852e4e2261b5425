/**
 * The in-process emulator: a synchronous WireFetch over a seeded store, with fault injection,
 * a request log, and helpers for tests to inspect and change records server-side.
 */
import type {WireOutcome, WireRequest} from '../http-types';
import {signHeaders} from './auth';
import {isCdnUrl, serveMaterial} from './cdn';
import {DEMO_ACCOUNTS, MAX_AGENCY_SUB_ACCOUNTS} from './demo-accounts';
import {md5Hex} from './digest';
import {
  dispatch,
  readRequest,
  type ApiRequest,
  type ReadRequest,
} from './dispatch';
import type {BillingType} from './enums';
import {
  Faults,
  type FaultConfig,
  type FaultDecision,
  type FaultKind,
  type PageShape,
  OWN_PAGE_SIZE,
  GARBLED_BODY,
} from './faults';
import {
  accountSummaries,
  inspectCampaign,
  inspectOffer,
  patchCampaign,
  patchOffer,
  type CampaignPatch,
  type OfferPatch,
} from './inspect';
import type {Account} from './model';
import {
  DUPLICATE_UPLOAD_SHAPES,
  type DuplicateUploadShape,
  type Settings,
} from './operations/context';
import type {Query} from './request';
import {seedStore, type SeedOptions} from './seed';
import type {Store} from './store';

export interface EmulatorOptions {
  /** Seed of all generated data and of fault randomness; default 1. */
  seed?: number;
  /** Offers of the main account demo_adv; default 300, at most 100,000; 0 for none. */
  offers?: number;
  /** Campaigns of demo_adv; default 30. */
  campaigns?: number;
  /** Materials of demo_adv; default 60. */
  materials?: number;
  /** Per other seeded account: default offers/10, campaigns/5, materials/4 (rounded up). */
  otherOffers?: number;
  otherCampaigns?: number;
  otherMaterials?: number;
  /** Billing types per account name, e.g. {demo_adv: ['CPI']}; replaces the demo defaults. */
  permissions?: Partial<Record<string, BillingType[]>>;
  /**
   * Sub-accounts of demo_adv seeded besides demo_sub_a and demo_sub_b (`agency_sub_01`, ...,
   * each with its own keys and the records of every other account); default 0, at most 99.
   */
  subAccounts?: number;
  /**
   * GET sub_adv_account without a name lists every sub-account of the caller, paged: true with
   * their keys, 'names' without them; default false: a name is required, as the document
   * shows the lookup (README, assumption 15a).
   */
  listsSubAccounts?: boolean | 'names';
  /**
   * Billing types the service accepts beyond the five the document names, e.g. ['CPA'], open to
   * every account; default none: another type is refused (README, assumption 34a).
   */
  extraBillingTypes?: string[];
  /**
   * The offers list shows each offer's support_server_click, which 2.3 leaves out: true as
   * YES or NO, 'boolean' as a JSON boolean; default false, as the document has it (README,
   * assumption 45a).
   */
  listsServerClick?: boolean | 'boolean';
  /**
   * The offers and campaign lists name target_geo (of an offer and of its budget items)
   * country_code and give campaign_id as text, the shapes the vendor's public clients read;
   * default false, as the document has it (README, assumption 45b).
   */
  clientShapes?: boolean;
  /**
   * The offers list gives start_time and end_time in Unix milliseconds (2.3 says "timestamp"
   * without its unit); default false: seconds, as 4.2 takes them (README, assumption 45c).
   */
  listsTimesInMs?: boolean;
  /**
   * PUT tracking keeps click_url with its scheme and host in lower case, as 2.3 says the
   * service does for impression_url; default false: as sent (README, assumption 50a).
   */
  normalisesClickUrl?: boolean;
  /** The clock in ms; default Date.now. Fault clock skew is added on top. */
  now?: () => number;
  /** Emulator-clock seconds from setting a click URL to its test passing; default 30. */
  clickTestSeconds?: number;
  /** Largest upload in bytes; default 30 MiB. */
  maxUploadBytes?: number;
  /** Where the `already existed` upload answer puts fmd5 and name; default 'msgAndData'. */
  duplicateUploadShape?: DuplicateUploadShape;
  /** HTTP status of the `already existed` upload answer; default 200. */
  duplicateUploadStatus?: number;
  faults?: Partial<FaultConfig>;
}

export interface RecordedRequest {
  seq: number;
  /** Emulator clock (ms) when the request arrived. */
  at: number;
  method: string;
  path: string;
  query: Query;
  /** Parsed JSON body, a form summary for uploads, the raw text if unreadable, or null. */
  body: unknown;
  /** User name of the authenticated account; null if authentication failed or never ran. */
  account: string | null;
  /**
   * The access-key header as sent (null when absent), whatever became of the request: who
   * signed it, even where a fault answered first or the keys were refused.
   */
  accessKey: string | null;
  /** HTTP status; null when the connection dropped. */
  status: number | null;
  /** Envelope code and text; null when no envelope was produced. */
  code: number | null;
  msg: string | null;
  fault: FaultKind | null;
}

const MAX_OFFERS = 100_000;

function seedOptions(
  options: EmulatorOptions,
  nowSeconds: number,
): SeedOptions {
  const offers = options.offers ?? 300;
  const campaigns = options.campaigns ?? 30;
  const materials = options.materials ?? 60;
  const subAccounts = options.subAccounts ?? 0;
  if (offers > MAX_OFFERS || offers < 0 || campaigns < 0 || materials < 0) {
    throw new RangeError(`record counts lie between 0 and ${MAX_OFFERS}`);
  }
  if (
    !Number.isInteger(subAccounts) ||
    subAccounts < 0 ||
    subAccounts > MAX_AGENCY_SUB_ACCOUNTS
  ) {
    throw new RangeError(
      `subAccounts is a whole number from 0 to ${MAX_AGENCY_SUB_ACCOUNTS}`,
    );
  }
  return {
    seed: options.seed ?? 1,
    offers,
    campaigns,
    materials,
    otherOffers: options.otherOffers ?? Math.ceil(offers / 10),
    otherCampaigns: options.otherCampaigns ?? Math.ceil(campaigns / 5),
    otherMaterials: options.otherMaterials ?? Math.ceil(materials / 4),
    permissions: options.permissions ?? {},
    subAccounts,
    nowSeconds,
  };
}

function settingsOf(options: EmulatorOptions): Settings {
  const shape = options.duplicateUploadShape ?? 'msgAndData';
  const status = options.duplicateUploadStatus ?? 200;
  if (!DUPLICATE_UPLOAD_SHAPES.includes(shape)) {
    throw new RangeError(
      `duplicateUploadShape is one of ${DUPLICATE_UPLOAD_SHAPES.join(', ')}`,
    );
  }
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError('duplicateUploadStatus is an HTTP status, 200-599');
  }
  return {
    clickTestSeconds: options.clickTestSeconds ?? 30,
    maxUploadBytes: options.maxUploadBytes ?? 30 * 1024 * 1024,
    duplicateUploadShape: shape,
    duplicateUploadStatus: status,
    extraBillingTypes: options.extraBillingTypes ?? [],
    listsServerClick: options.listsServerClick ?? false,
    clientShapes: options.clientShapes ?? false,
    listsTimesInMs: options.listsTimesInMs ?? false,
    normalisesClickUrl: options.normalisesClickUrl ?? false,
    listsSubAccounts: options.listsSubAccounts ?? false,
  };
}

export class Emulator {
  readonly faults: Faults;
  private currentStore: Store;
  private readonly log: RecordedRequest[] = [];
  private nextSeq = 1;
  private readonly clock: () => number;
  private settings: Settings;

  constructor(private readonly options: EmulatorOptions = {}) {
    this.clock = options.now ?? Date.now;
    this.currentStore = seedStore(seedOptions(options, this.seedingSeconds()));
    this.faults = new Faults(options.seed ?? 1);
    this.faults.configure(options.faults ?? {});
    this.settings = settingsOf(options);
  }

  /** The current store (a reset replaces it). */
  get store(): Store {
    return this.currentStore;
  }

  /** A synchronous exchange; bound, so it can be passed around as a WireFetch. */
  readonly handle = (request: WireRequest): WireOutcome => {
    const apiRequest = {
      method: request.method.toUpperCase(),
      url: new URL(request.url),
      // Header names are case-insensitive on the wire; the checks read them lowercase.
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      body: request.body,
    };
    const {method, url} = apiRequest;
    if (isCdnUrl(url)) return serveMaterial(this.currentStore, method, url);
    const read = readRequest(apiRequest);
    const retryKey = `${method} ${url.pathname}${url.search} ${md5Hex(request.body)}`;
    const accessKey = apiRequest.headers['access-key'] ?? null;
    const signer =
      accessKey === null
        ? null
        : (this.currentStore.accountByAccessKey(accessKey)?.name ?? null);
    const fault = this.faults.decide(method, url.pathname, retryKey, signer);
    const latencyMs = this.faults.latencyMs + (fault?.latencyMs ?? 0);
    const entry = this.record(
      method,
      url,
      read,
      fault?.kind ?? null,
      accessKey,
    );
    const served = !fault || fault.applied;
    const asked =
      fault?.kind === 'page' && fault.page === 'noLimit'
        ? withParam(apiRequest, 'limit', OWN_PAGE_SIZE)
        : fault?.kind === 'page' && fault.page === 'repeat'
          ? withParam(apiRequest, 'page', 1)
          : apiRequest;
    const answer = served
      ? dispatch(
          this.currentStore,
          this.settings,
          asked,
          asked === apiRequest ? read : readRequest(asked),
          this.nowSeconds(),
        )
      : undefined;
    if (answer) {
      entry.account = answer.account?.name ?? null;
      entry.code = answer.envelope.code;
      entry.msg = answer.envelope.msg;
    }
    if (fault?.kind === 'drop') {
      return {kind: 'dropped', applied: fault.applied, latencyMs};
    }
    if (fault && !['slow', 'recode', 'strip', 'page'].includes(fault.kind)) {
      const response = faultResponse(fault);
      entry.status = response.status;
      if (fault.kind === 'busy') {
        entry.code = Number(fault.code);
        entry.msg = fault.msg;
      } else {
        entry.code = null;
        entry.msg = null;
      }
      return {kind: 'response', ...response, latencyMs};
    }
    entry.status = answer!.status;
    if (fault?.kind === 'recode') {
      entry.code = Number(fault.code);
      if (fault.msg) entry.msg = fault.msg;
    }
    return {
      kind: 'response',
      status: answer!.status,
      headers: {'content-type': 'application/json; charset=utf-8'},
      body:
        fault?.kind === 'page'
          ? bentPage(answer!.body, fault.page)
          : fault?.kind === 'recode'
            ? recoded(answer!.body, fault)
            : fault?.kind === 'strip'
              ? stripped(answer!.body, fault.fields)
              : answer!.body,
      latencyMs,
    };
  };

  get requests(): readonly RecordedRequest[] {
    return this.log;
  }

  clearRequests(): void {
    this.log.length = 0;
  }

  /** The emulator's clock in ms, skew included. */
  nowMs(): number {
    return this.clock() + this.faults.clockSkewSeconds * 1000;
  }

  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** The clock without the faults' skew: the data is seeded at the true time. */
  private seedingSeconds(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** Regenerates the store and the settings from the constructor's options overridden by
   * `options`; the request log and the faults are cleared too. */
  reset(options: Omit<EmulatorOptions, 'now'> = {}): void {
    const merged = {...this.options, ...options};
    this.settings = settingsOf(merged);
    this.currentStore = seedStore(seedOptions(merged, this.seedingSeconds()));
    this.clearRequests();
    this.faults.clear();
    this.faults.configure(merged.faults ?? {});
  }

  account(name: string): Account {
    const account = this.currentStore.accountByName(name);
    if (!account) throw new RangeError(`no account ${name}`);
    return account;
  }

  /** Headers signed as account `name` at `timestampSeconds` (default: the emulator clock). */
  signedHeaders(
    name: string = DEMO_ACCOUNTS.main.name,
    timestampSeconds = this.nowSeconds(),
  ): Record<string, string> {
    const account = this.account(name);
    return signHeaders(account.access_key, account.api_key, timestampSeconds);
  }

  /** Deletes a sub-account (Store.removeAccount): neither listed nor looked up, its keys refused. */
  deleteSubAccount(name: string): void {
    const account = this.account(name);
    if (account.kind !== 'sub_adv_account')
      throw new RangeError(`${name} is not a sub-account`);
    this.currentStore.removeAccount(account);
  }

  setPermissions(name: string, billingTypes: BillingType[]): void {
    this.account(name).permissions = [...billingTypes];
  }

  offerView(offerId: number) {
    return inspectOffer(this.currentStore, offerId);
  }

  campaignView(campaignId: number) {
    return inspectCampaign(this.currentStore, campaignId);
  }

  updateOffer(offerId: number, patch: OfferPatch): void {
    patchOffer(this.currentStore, offerId, patch);
  }

  updateCampaign(campaignId: number, patch: CampaignPatch): void {
    patchCampaign(this.currentStore, campaignId, patch);
  }

  state() {
    return {
      seed: this.currentStore.seed,
      nowSeconds: this.nowSeconds(),
      accounts: accountSummaries(this.currentStore),
    };
  }

  private record(
    method: string,
    url: URL,
    read: ReadRequest,
    fault: FaultKind | null,
    accessKey: string | null,
  ): RecordedRequest {
    const entry: RecordedRequest = {
      seq: this.nextSeq++,
      at: this.nowMs(),
      method,
      path: url.pathname,
      query: read.query,
      body: read.body?.recorded ?? null,
      account: null,
      accessKey,
      status: null,
      code: null,
      msg: null,
      fault,
    };
    this.log.push(entry);
    return entry;
  }
}

/**
 * A fault's answer: a gateway's plain text for 5xx and 429, a proxy's page (or whatever the
 * rule gives) for a garbled 200, the service's own failure envelope for busy.
 */
/**
 * The request as a server serves it that reads one parameter its own way (its page size, or
 * page 1 whatever was asked).
 */
function withParam(
  request: ApiRequest,
  name: string,
  value: number,
): ApiRequest {
  const url = new URL(request.url);
  url.searchParams.set(name, String(value));
  return {...request, url};
}

/** The served answer under the fault's code (and msg), its data as served. */
function recoded(body: Uint8Array, fault: FaultDecision): Uint8Array {
  const envelope = JSON.parse(new TextDecoder().decode(body));
  envelope.code = fault.code;
  if (fault.msg) envelope.msg = fault.msg;
  return new TextEncoder().encode(JSON.stringify(envelope));
}

/** The served answer without `fields` in its data (in each record of a list). */
function stripped(body: Uint8Array, fields: readonly string[]): Uint8Array {
  const envelope = JSON.parse(new TextDecoder().decode(body));
  if (fields.includes('data')) delete envelope.data;
  const data = envelope.data;
  const records = Array.isArray(data?.list) ? data.list : [data];
  for (const record of records) {
    if (record && typeof record === 'object')
      for (const field of fields) delete record[field];
  }
  return new TextEncoder().encode(JSON.stringify(envelope));
}

/** The id fields of the lists, the one a record is told apart by first. */
const ID_FIELDS = [
  'ad_id',
  'offer_id',
  'campaign_id',
  'creative_md5',
  'sub_adv_user_name',
];

function withoutId(record: Record<string, unknown> | undefined): void {
  const field = ID_FIELDS.find(name => record && name in record);
  if (field) delete record![field];
}

/** A list answer bent as a `page` fault says; an answer without a list passes as it is. */
function bentPage(body: Uint8Array, shape: PageShape): Uint8Array {
  const envelope = JSON.parse(new TextDecoder().decode(body));
  const data = envelope?.data;
  if (!data || !Array.isArray(data.list)) return body;
  if (shape === 'noTotal') delete data.total;
  else if (shape === 'zeroTotal') data.total = 0;
  else if (shape === 'noLimit') delete data.limit;
  else if (shape === 'noId') withoutId(data.list[0]);
  else if (shape === 'short')
    data.list = data.list.slice(0, Math.floor(data.list.length / 2));
  return new TextEncoder().encode(JSON.stringify(envelope));
}

function faultResponse(fault: FaultDecision) {
  const encode = (text: string) => new TextEncoder().encode(text);
  if (fault.kind === 'busy') {
    return {
      status: 200,
      headers: {'content-type': 'application/json; charset=utf-8'},
      body: encode(
        JSON.stringify({code: fault.code, msg: fault.msg, data: {}}),
      ),
    };
  }
  if (fault.kind === 'garbled') {
    return {
      status: 200,
      headers: {'content-type': 'text/html; charset=utf-8'},
      body: encode(fault.body ?? GARBLED_BODY),
    };
  }
  const text =
    fault.kind === 'rateLimit' ? 'Too Many Requests' : 'Service Unavailable';
  return {
    status: fault.status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      ...(fault.kind === 'rateLimit' && fault.retryAfterSeconds !== null
        ? {'retry-after': String(fault.retryAfterSeconds)}
        : {}),
    },
    body: encode(fault.body ?? `${fault.status} ${text} (emulator fault)`),
  };
}

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  return new Emulator(options);
}
