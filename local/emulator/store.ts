/**
 * The in-memory store: every account with its own campaigns, offers, materials and creative
 * ads, plus the global indexes that ids and credentials are looked up by. Ids come from global
 * sequences, so an id of another account is simply unknown to the caller.
 */
import type {BillingType, Currency} from './enums';
import type {
  Account,
  AccountKind,
  Campaign,
  CreativeAd,
  Material,
  Offer,
} from './model';

const FIRST_IDS = {
  account: 1,
  campaign: 10001,
  offer: 200001,
  creativeSet: 500001,
  creativeAd: 800001,
  creative: 900001,
};
export type Sequence = keyof typeof FIRST_IDS;

export interface NewAccount {
  name: string;
  kind: AccountKind;
  parentId: number | null;
  access_key: string;
  api_key: string;
  password: string;
  permissions: BillingType[];
  currency: Currency;
}

export class Store {
  /** The seed the store was generated from; ids and keys made later derive from it too. */
  constructor(readonly seed: number) {}

  private readonly next = {...FIRST_IDS};
  private readonly accountsById = new Map<number, Account>();
  private readonly accountsByKey = new Map<string, Account>();
  private readonly accountsByName = new Map<string, Account>();
  private readonly campaignsById = new Map<number, Campaign>();
  private readonly offersById = new Map<number, Offer>();
  /** `${accountId}:${lowercased offer_name}` -> offer_id: names are unique per account. */
  private readonly offerNames = new Map<string, number>();
  /** Offers whose click URL test is running, so settling them never scans every offer. */
  readonly pendingClickTests = new Set<Offer>();
  /** PENDING offers whose link passed its test, waiting for their start time to run. */
  readonly awaitingStart = new Set<Offer>();

  nextId(sequence: Sequence): number {
    return this.next[sequence]++;
  }

  addAccount(fields: NewAccount): Account {
    const account: Account = {
      ...fields,
      accountId: this.nextId('account'),
      is_unlimited_credit: 'NO',
      credit: 0,
      campaigns: new Map(),
      offers: new Map(),
      materials: new Map(),
      creativeAds: new Map(),
    };
    this.accountsById.set(account.accountId, account);
    this.accountsByKey.set(account.access_key, account);
    this.accountsByName.set(account.name.toLowerCase(), account);
    return account;
  }

  accounts(): Account[] {
    return [...this.accountsById.values()];
  }

  /**
   * Deletes an account, as the platform's UI can: its keys sign nothing from now on and no
   * listing or lookup answers its name. Its records go with it.
   */
  removeAccount(account: Account): void {
    this.accountsById.delete(account.accountId);
    this.accountsByKey.delete(account.access_key);
    this.accountsByName.delete(account.name.toLowerCase());
  }

  account(accountId: number): Account | undefined {
    return this.accountsById.get(accountId);
  }

  accountByAccessKey(accessKey: string): Account | undefined {
    return this.accountsByKey.get(accessKey);
  }

  /** User names are unique across the whole service, ignoring case. */
  accountByName(name: string): Account | undefined {
    return this.accountsByName.get(name.toLowerCase());
  }

  addCampaign(campaign: Campaign): void {
    this.owner(campaign.accountId).campaigns.set(
      campaign.campaign_id,
      campaign,
    );
    this.campaignsById.set(campaign.campaign_id, campaign);
  }

  campaign(campaignId: number): Campaign | undefined {
    return this.campaignsById.get(campaignId);
  }

  addOffer(offer: Offer): void {
    this.owner(offer.accountId).offers.set(offer.offer_id, offer);
    this.offersById.set(offer.offer_id, offer);
    this.offerNames.set(
      nameKey(offer.accountId, offer.offer_name),
      offer.offer_id,
    );
  }

  offer(offerId: number): Offer | undefined {
    return this.offersById.get(offerId);
  }

  offerIdByName(accountId: number, offerName: string): number | undefined {
    return this.offerNames.get(nameKey(accountId, offerName));
  }

  renameOffer(offer: Offer, offerName: string): void {
    this.offerNames.delete(nameKey(offer.accountId, offer.offer_name));
    offer.offer_name = offerName;
    this.offerNames.set(nameKey(offer.accountId, offerName), offer.offer_id);
  }

  addMaterial(material: Material): void {
    this.owner(material.accountId).materials.set(
      material.creative_md5,
      material,
    );
  }

  addCreativeAd(ad: CreativeAd): void {
    this.owner(ad.accountId).creativeAds.set(ad.ad_id, ad);
  }

  private owner(accountId: number): Account {
    const account = this.accountsById.get(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    return account;
  }
}

function nameKey(accountId: number, offerName: string): string {
  return `${accountId}:${offerName.toLowerCase()}`;
}
