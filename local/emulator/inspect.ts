/** Test-side views and server-side edits of the store, beside the API (never through it). */
import type {BillingType} from './enums';
import type {Campaign, Offer} from './model';
import {presentCampaign, presentOffer} from './present';
import type {Store} from './store';

/** Offer fields a test may change server-side (ids, uuid and ownership are fixed). */
export type OfferPatch = Partial<
  Omit<Offer, 'accountId' | 'offer_id' | 'uuid' | 'clickTestPassAt'>
>;
export type CampaignPatch = Partial<
  Omit<Campaign, 'accountId' | 'campaign_id'>
>;

export interface AccountSummary {
  name: string;
  kind: string;
  parent: string | null;
  access_key: string;
  api_key: string;
  permissions: BillingType[];
  currency: string;
  campaigns: number;
  offers: number;
  materials: number;
  creativeAds: number;
}

export function accountSummaries(store: Store): AccountSummary[] {
  return store.accounts().map(account => ({
    name: account.name,
    kind: account.kind,
    parent:
      account.parentId === null
        ? null
        : (store.account(account.parentId)?.name ?? null),
    access_key: account.access_key,
    api_key: account.api_key,
    permissions: [...account.permissions],
    currency: account.currency,
    campaigns: account.campaigns.size,
    offers: account.offers.size,
    materials: account.materials.size,
    creativeAds: account.creativeAds.size,
  }));
}

/** An offer as the list shows it, plus its owner and the fields only creation sets. */
export function inspectOffer(store: Store, offerId: number) {
  const offer = store.offer(offerId);
  if (!offer) return undefined;
  return {
    account: store.account(offer.accountId)!.name,
    ...presentOffer(store, offer),
    bid_goal: offer.bid_goal,
    os_version_max: offer.os_version_max,
    support_server_click: offer.support_server_click,
    creative_sets: structuredClone(offer.creative_sets),
  };
}

export function inspectCampaign(store: Store, campaignId: number) {
  const campaign = store.campaign(campaignId);
  if (!campaign) return undefined;
  return {
    account: store.account(campaign.accountId)!.name,
    ...presentCampaign(campaign),
  };
}

export function patchOffer(
  store: Store,
  offerId: number,
  patch: OfferPatch,
): void {
  const offer = store.offer(offerId);
  if (!offer) throw new RangeError(`no offer ${offerId}`);
  const {offer_name, ...rest} = checkFields(offer, patch, [
    'accountId',
    'offer_id',
    'uuid',
    'clickTestPassAt',
  ]);
  if (offer_name !== undefined) store.renameOffer(offer, offer_name);
  Object.assign(offer, structuredClone(rest));
}

export function patchCampaign(
  store: Store,
  campaignId: number,
  patch: CampaignPatch,
): void {
  const campaign = store.campaign(campaignId);
  if (!campaign) throw new RangeError(`no campaign ${campaignId}`);
  Object.assign(
    campaign,
    structuredClone(checkFields(campaign, patch, ['accountId', 'campaign_id'])),
  );
}

/** A patch names only existing, editable fields: a typo fails loudly instead of doing nothing. */
function checkFields<T extends object, P extends object>(
  record: T,
  patch: P,
  fixed: string[],
): P {
  for (const field of Object.keys(patch)) {
    if (!(field in record) || fixed.includes(field)) {
      throw new RangeError(`cannot patch field ${field}`);
    }
  }
  return patch;
}
