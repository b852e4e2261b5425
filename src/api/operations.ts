/**
 * One typed function per operation of the API document (part 4), over ApiClient. List
 * operations are declared as listings, which paging.ts fetches whole, alone or together with
 * the other listings of a job; writes come in batch form, one outcome per item, because every
 * job sends many at once.
 */
import {ApiClient, OperationSpec, Outcome, isKeyRefusal} from './client';
import {parseAlreadyExisted} from './duplicate-upload';
import {isObject} from './envelope';
import {ApiError, OutcomeUnknownError} from './errors';
import {IdGroup, Listing, ReadBack, listByIds} from './paging';
import {readCampaign, readOffer} from './records';
import type {
  BudgetUpdate,
  Campaign,
  CampaignFilter,
  CampaignUpdate,
  CreateOfferRequest,
  CreatedOffer,
  CreativeAd,
  CreativeAdFilter,
  Material,
  MaterialFilter,
  Offer,
  OfferFilter,
  SubAccount,
  SubAccountCreate,
  TrackingUpdate,
  UploadedMaterial,
} from './types';
import type {FileBlob} from '../platform/ports';

const V3 = '/api/open/v3';

export const OPERATIONS = {
  uploadMaterial: op(
    'POST creatives/upload',
    'post',
    'creatives/upload',
    'create',
    true,
  ),
  createOffer: op('POST offer', 'post', 'offer', 'create'),
  listOffers: {
    ...op('GET offers', 'get', 'offers', 'read'),
    readRecord: readOffer,
  },
  setTracking: op('PUT tracking', 'put', 'tracking', 'replace'),
  updateBudget: op('PUT offer/budget', 'put', 'offer/budget', 'replace'),
  listCampaigns: {
    ...op('GET campaign', 'get', 'campaign', 'read'),
    readRecord: readCampaign,
  },
  updateCampaign: op('PUT campaign', 'put', 'campaign', 'replace'),
  listCreativeAds: {
    ...op('GET creative-ad/list', 'get', 'creative-ad/list', 'read'),
    messageField: 'message',
  },
  listMaterials: op('GET creatives/source', 'get', 'creatives/source', 'read'),
  createSubAccount: op(
    'POST sub_adv_account',
    'post',
    'sub_adv_account',
    'create',
  ),
  getSubAccount: op('GET sub_adv_account', 'get', 'sub_adv_account', 'read'),
} satisfies Record<string, OperationSpec>;

/** Largest page sizes (part 8). */
export const MAX_LIMIT = {
  offers: 50,
  campaigns: 50,
  materials: 200,
  creativeAds: 100,
} as const;

function op(
  name: string,
  method: OperationSpec['method'],
  path: string,
  kind: OperationSpec['kind'],
  upload = false,
): OperationSpec {
  return {
    name,
    method,
    path: `${V3}/${path}`,
    kind,
    upload,
    messageField: 'msg',
  };
}

/** 4.3 */
export function offersListing(
  client: ApiClient,
  filter: OfferFilter = {},
): Listing<Offer> {
  return {
    client,
    op: OPERATIONS.listOffers,
    query: {...filter},
    maxLimit: MAX_LIMIT.offers,
    key: o => o.offer_id,
  };
}

/** Offers read back by id (paging.ts listByIds), each its own row source. */
export function readOffersBack(groups: readonly IdGroup[]): ReadBack<Offer> {
  return listByIds(
    groups,
    (client, ids) => offersListing(client, {offer_id: ids}),
    offer => [offer],
  );
}

/** 4.6 */
export function campaignsListing(
  client: ApiClient,
  filter: CampaignFilter = {},
): Listing<Campaign> {
  return {
    client,
    op: OPERATIONS.listCampaigns,
    query: {...filter},
    maxLimit: MAX_LIMIT.campaigns,
    key: c => c.campaign_id,
  };
}

/** 4.9 */
export function materialsListing(
  client: ApiClient,
  filter: MaterialFilter = {},
): Listing<Material> {
  return {
    client,
    op: OPERATIONS.listMaterials,
    query: {...filter},
    maxLimit: MAX_LIMIT.materials,
    key: m => m.creative_md5,
  };
}

/** Page size asked of the sub-account listing: the document gives none for this operation. */
export const SUB_ACCOUNT_PAGE = 50;

/**
 * 4.11 without a name, with the main account's keys: every sub-account, where a server answers
 * it (the document shows the lookup by name only). A refusal that is not about the keys leaves
 * it empty (the names known otherwise are looked up by name instead); refused keys fail it.
 */
export function subAccountsListing(main: ApiClient): Listing<SubAccount> {
  return {
    client: main,
    op: OPERATIONS.getSubAccount,
    query: {},
    maxLimit: SUB_ACCOUNT_PAGE,
    key: account => account.sub_adv_user_name,
    emptyOn: error => error instanceof ApiError && !isKeyRefusal(error),
  };
}

/**
 * 4.11 by name, with the main account's keys, as a listing so that it shares a fetchAll with
 * the other lists. Isolated: one name's failure is that sub-account's alone.
 */
export function subAccountLookup(
  main: ApiClient,
  name: string,
): Listing<SubAccount> {
  return {
    client: main,
    op: OPERATIONS.getSubAccount,
    query: {sub_adv_user_name: name},
    maxLimit: SUB_ACCOUNT_PAGE,
    key: account => account.sub_adv_user_name,
    isolated: true,
  };
}

/** 4.8 */
export function creativeAdsListing(
  client: ApiClient,
  filter: CreativeAdFilter,
): Listing<CreativeAd> {
  return {
    client,
    op: OPERATIONS.listCreativeAds,
    query: {...filter},
    maxLimit: MAX_LIMIT.creativeAds,
    key: a => a.ad_id,
  };
}

/**
 * 4.2, one outcome per request, each signed by the account that creates the offer; unknown
 * outcomes are OutcomeUnknownError.
 */
export function createOffers(
  calls: ReadonlyArray<SignedBy<CreateOfferRequest>>,
): Array<Outcome<CreatedOffer>> {
  return sendEach<CreatedOffer>(OPERATIONS.createOffer, calls);
}

/** 4.5: each update replaces the offer's whole budget. */
export function updateBudgets(
  calls: ReadonlyArray<SignedBy<BudgetUpdate>>,
): Array<Outcome<unknown>> {
  return sendEach(OPERATIONS.updateBudget, calls);
}

/** 4.4 */
export function setTracking(
  calls: ReadonlyArray<SignedBy<TrackingUpdate>>,
): Array<Outcome<unknown>> {
  return sendEach(OPERATIONS.setTracking, calls);
}

/** 4.7 */
export function updateCampaigns(
  calls: ReadonlyArray<SignedBy<CampaignUpdate>>,
): Array<Outcome<Partial<Campaign>>> {
  return sendEach<Partial<Campaign>>(OPERATIONS.updateCampaign, calls);
}

/** A request body and the client of the account it is for (DESIGN 4.4: its owner's keys). */
export interface SignedBy<T> {
  client: ApiClient;
  body: T;
}

/** JSON bodies, each signed by its own client, sharing fetchAll batches. */
function sendEach<T>(
  op: OperationSpec,
  calls: ReadonlyArray<SignedBy<unknown>>,
): Array<Outcome<T>> {
  if (calls.length === 0) return [];
  return calls[0].client.callMixed<T>(
    calls.map(({client, body}) => ({client, op, payload: {json: body}})),
  );
}

/**
 * 4.1, each file signed by the account it is uploaded to, sharing fetchAll batches: an `already
 * existed` answer is a success that reuses the md5 and name it carries (part 1, rule 3), as far
 * as they can be read from it: the caller looks up what is missing.
 */
export function uploadMaterials(
  calls: ReadonlyArray<SignedBy<FileBlob>>,
): Array<Outcome<UploadedMaterial>> {
  if (calls.length === 0) return [];
  return calls[0].client
    .callMixed<unknown>(
      calls.map(({client, body}) => ({
        client,
        op: OPERATIONS.uploadMaterial,
        payload: {file: body},
      })),
    )
    .map(outcome => {
      if (outcome.ok) return {ok: true, data: uploaded(outcome.data)};
      const existing = parseAlreadyExisted(outcome.error);
      if (!existing) return outcome;
      return {ok: true, data: {...existing, alreadyExisted: true}};
    });
}

/**
 * A success's data.creative_md5 and data.creative_name (4.1), each only where it is one: an
 * md5 is 32 hex digits, a name a text that is not empty. What is missing is left for the
 * caller to look up (by md5) or to report, never filled with a stand-in such as `undefined`;
 * the answer's data, quoted, is then its message.
 */
function uploaded(data: unknown): UploadedMaterial {
  const fields = isObject(data) ? data : {};
  const md5 =
    typeof fields.creative_md5 === 'string' &&
    /^[0-9a-f]{32}$/i.test(fields.creative_md5.trim())
      ? fields.creative_md5.trim()
      : undefined;
  const name =
    typeof fields.creative_name === 'string' && fields.creative_name !== ''
      ? fields.creative_name
      : undefined;
  if (md5 !== undefined && name !== undefined)
    return {creative_md5: md5, creative_name: name, alreadyExisted: false};
  return {
    ...(md5 === undefined ? {} : {creative_md5: md5}),
    alreadyExisted: false,
    message: `success, data ${JSON.stringify(data ?? null)}`,
  };
}

/**
 * 4.10 (main account's keys), one outcome per request. A success that carries no access_key
 * or api_key (text, not empty) made a sub-account whose keys are not known: its outcome counts
 * as unknown, so the caller looks it up by name (4.11 answers both keys) rather than keep
 * `undefined` for a key.
 */
export function createSubAccounts(
  client: ApiClient,
  requests: readonly SubAccountCreate[],
): Array<Outcome<SubAccount>> {
  const op = OPERATIONS.createSubAccount;
  return client
    .callAll<unknown>(
      op,
      requests.map(json => ({json})),
    )
    .map(outcome => {
      if (!outcome.ok) return outcome;
      const data = outcome.data;
      const keyed =
        isObject(data) &&
        [data.access_key, data.api_key].every(
          key => typeof key === 'string' && key !== '',
        );
      if (keyed) return {ok: true, data: data as unknown as SubAccount};
      return {
        ok: false,
        error: new OutcomeUnknownError(
          op.name,
          new ApiError(
            op.name,
            200,
            200,
            `success, but the answer carries no access_key and api_key (data ${JSON.stringify(data ?? null)})`,
            {},
          ),
        ),
      };
    });
}

/** 4.11 (main account's keys): undefined when no such sub-account is listed. */
export function getSubAccount(
  client: ApiClient,
  name: string,
): SubAccount | undefined {
  const data = client.call<{list?: SubAccount[]}>(OPERATIONS.getSubAccount, {
    query: {sub_adv_user_name: name},
  });
  return (data?.list ?? []).find(a => a.sub_adv_user_name === name);
}
