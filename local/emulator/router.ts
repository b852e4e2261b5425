/** The operations of section 4 by method and path. */
import {ApiError, CODE, type MessageKey} from './envelope';
import {updateCampaign} from './operations/campaign-update';
import {listCampaigns} from './operations/campaigns-list';
import type {Operation} from './operations/context';
import {listCreativeAds} from './operations/creative-ads-list';
import {uploadCreative} from './operations/creative-upload';
import {listMaterials} from './operations/materials-list';
import {updateBudget} from './operations/offer-budget';
import {createOffer} from './operations/offer-create';
import {listOffers} from './operations/offers-list';
import {createSubAccount, findSubAccount} from './operations/sub-accounts';
import {updateTracking} from './operations/tracking';

export const API_PREFIX = '/api/open/v3/';

export interface Route {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  operation: Operation;
  /** The body is multipart/form-data (the upload) rather than JSON. */
  multipart: boolean;
  messageKey: MessageKey;
}

function route(
  method: Route['method'],
  name: string,
  operation: Operation,
  {multipart = false, messageKey = 'msg' as MessageKey} = {},
): Route {
  return {method, path: API_PREFIX + name, operation, multipart, messageKey};
}

export const ROUTES: readonly Route[] = [
  route('POST', 'creatives/upload', uploadCreative, {multipart: true}),
  route('POST', 'offer', createOffer),
  route('GET', 'offers', listOffers),
  route('PUT', 'tracking', updateTracking),
  route('PUT', 'offer/budget', updateBudget),
  route('GET', 'campaign', listCampaigns),
  route('PUT', 'campaign', updateCampaign),
  route('GET', 'creative-ad/list', listCreativeAds, {messageKey: 'message'}),
  route('GET', 'creatives/source', listMaterials),
  route('POST', 'sub_adv_account', createSubAccount),
  route('GET', 'sub_adv_account', findSubAccount),
];

/** The route, or a 404 / 405 answer (real HTTP statuses: no operation was reached). */
export function findRoute(method: string, path: string): Route {
  const forPath = ROUTES.filter(candidate => candidate.path === path);
  if (forPath.length === 0) {
    throw new ApiError(CODE.NOT_FOUND, 'Not Found', {path}, 404);
  }
  const found = forPath.find(candidate => candidate.method === method);
  if (!found) {
    throw new ApiError(
      CODE.METHOD_NOT_ALLOWED,
      'Method Not Allowed',
      {allowed: forPath.map(candidate => candidate.method).join(', ')},
      405,
    );
  }
  return found;
}
