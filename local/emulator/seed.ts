/**
 * Deterministic seed data: the demo accounts, each with campaigns, materials, offers and
 * creative ads drawn from its own PRNG stream (so one account's counts never change another's
 * values; ids come from global sequences). Built for speed: 20,000 offers take about 0.3 s.
 */
import {
  DEMO_ACCOUNTS,
  agencySubAccount,
  type DemoAccount,
} from './demo-accounts';
import {md5Hex} from './digest';
import {
  AD_OUTPUTS_BY_TYPE,
  AD_TYPES,
  AUTOMATIC_BID_GOAL,
  BILLING_TYPES,
  CATEGORIES,
  OFFER_STATUSES,
  TRACKING_METHODS,
  type AppPlatform,
  type BillingType,
  type CampaignStatus,
  type CreativeType,
  type OfferStatus,
} from './enums';
import type {Account, BudgetGroup, Campaign, Material, Offer} from './model';
import {deriveSeed, Prng} from './prng';
import {addCreativeAds, newCreativeSet, offerUuid} from './records';
import {Store} from './store';

export interface SeedOptions {
  seed: number;
  /** Campaigns, offers and materials of the main account (demo_adv). */
  campaigns: number;
  offers: number;
  materials: number;
  /** The same for every other seeded account. */
  otherCampaigns: number;
  otherOffers: number;
  otherMaterials: number;
  /** Billing types per account name, replacing the demo defaults. */
  permissions: Partial<Record<string, BillingType[]>>;
  /**
   * Sub-accounts of demo_adv seeded after the demo accounts (agencySubAccount), each with the
   * records of every other account: an agency's world.
   */
  subAccounts: number;
  /**
   * The emulator's clock at seeding, epoch seconds: dates count in whole days from its day, so
   * statuses agree with them when the data is looked at (no RUNNING offer past its end_time,
   * PENDING ones may start in the future) and a seed gives the same data all day.
   */
  nowSeconds: number;
}

const DAY = 86400;

const PRODUCTS = [
  'Puzzle Quest',
  'Merge Town',
  'Speedy Rider',
  'Word Garden',
  'Cash Tracker',
  'Fit Pulse',
  'Chef Story',
  'Star Defender',
  'Photo Magic',
  'Travel Buddy',
  'Idle Miner',
  'Solitaire Sky',
  'Block Blast',
  'Pet Salon',
  'Language Leap',
  'Farm Frenzy',
];
const POPULAR_GEOS = [
  'US',
  'GB',
  'DE',
  'FR',
  'JP',
  'KR',
  'BR',
  'IN',
  'ID',
  'CA',
  'AU',
  'MX',
  'ES',
  'IT',
  'TR',
  'TH',
  'VN',
  'PH',
  'SA',
  'AE',
];
const STOP_REASONS = [
  'stopped by the advertiser',
  'no usable creative',
  'tracking link test failed',
];
const END_REACHED = 'end time reached';
const IMAGE_RESOLUTIONS = [
  '512x512',
  '1080x1920',
  '1920x1080',
  '1200x627',
  '320x50',
  '300x250',
];
const VIDEO_RESOLUTIONS = ['1280x720', '720x1280', '1920x1080', '1080x1920'];
const APP_BILLING: readonly BillingType[] = ['CPI', 'CPE', 'OCPI'];
const PLATFORM_LABELS: Record<string, string> = {
  ANDROID: 'Android',
  IOS: 'iOS',
  WEBSITE: 'Web',
};

export function seedStore(options: SeedOptions): Store {
  const store = new Store(options.seed);
  const parents = new Map<string, number>();
  const agency = Array.from({length: options.subAccounts}, (_, i) =>
    agencySubAccount(i + 1),
  );
  // The agency's accounts come last, so the demo accounts' ids stay what they always were.
  for (const demo of [
    ...(Object.values(DEMO_ACCOUNTS) as DemoAccount[]),
    ...agency,
  ]) {
    const account = store.addAccount({
      name: demo.name,
      kind: demo.kind,
      parentId: demo.parent ? parents.get(demo.parent)! : null,
      access_key: demo.accessKey,
      api_key: demo.apiKey,
      password: demo.password,
      permissions: [...(options.permissions[demo.name] ?? demo.permissions)],
      currency: demo.currency,
    });
    parents.set(demo.name, account.accountId);
    const rng = new Prng(deriveSeed(options.seed, demo.name));
    const today = Math.floor(options.nowSeconds / DAY) * DAY;
    new AccountSeeder(store, account, rng, today).run(
      demo.main ? options.campaigns : options.otherCampaigns,
      demo.main ? options.offers : options.otherOffers,
      demo.main ? options.materials : options.otherMaterials,
    );
  }
  return store;
}

class AccountSeeder {
  private readonly materials: Material[] = [];
  private readonly appCampaigns: Campaign[] = [];
  private readonly allCampaigns: Campaign[] = [];

  constructor(
    private readonly store: Store,
    private readonly account: Account,
    private readonly rng: Prng,
    /** Start of the seeding day, epoch seconds. */
    private readonly today: number,
  ) {}

  run(campaigns: number, offers: number, materials: number): void {
    if (offers > 0 && campaigns === 0) {
      throw new RangeError('offers need at least one campaign to belong to');
    }
    for (let i = 0; i < materials; i++) this.addMaterial(i);
    for (let i = 0; i < campaigns; i++) this.addCampaign(i);
    for (let i = 0; i < offers; i++) this.addOffer(i);
  }

  private addMaterial(index: number): void {
    const {rng} = this;
    // Three images for each video and each playable; the first is a 512x512 icon image.
    const type: CreativeType = ['IMAGE', 'IMAGE', 'IMAGE', 'VIDEO', 'PLAYABLE'][
      index % 5
    ] as CreativeType;
    const resolution =
      type === 'IMAGE'
        ? index === 0
          ? '512x512'
          : rng.pick(IMAGE_RESOLUTIONS)
        : type === 'VIDEO'
          ? rng.pick(VIDEO_RESOLUTIONS)
          : '';
    const playable = type === 'PLAYABLE';
    // The md5 is the bytes' own, so a material fetched from its creative_url and uploaded
    // into another account keeps its md5 there.
    const bytes = new TextEncoder().encode(
      `material:${this.store.seed}:${this.account.name}:${index}`,
    );
    const material: Material = {
      accountId: this.account.accountId,
      creativeId: this.store.nextId('creative'),
      creative_md5: md5Hex(bytes),
      bytes,
      creative_name: `${type.toLowerCase()}_${resolution || 'html5'}_${String(
        index + 1,
      ).padStart(3, '0')}`,
      creative_type: type,
      resolution,
      size:
        type === 'IMAGE'
          ? rng.decimal(20, 900, 2)
          : type === 'VIDEO'
            ? rng.decimal(800, 20000, 2)
            : rng.decimal(200, 5000, 2),
      language: playable ? rng.pick(['en', 'ja', 'zh', 'es']) : null,
      platform: playable ? rng.pick(['ANDROID', 'IOS', 'ALL']) : null,
      extension:
        type === 'IMAGE'
          ? rng.pick(['png', 'jpg'])
          : type === 'VIDEO'
            ? 'mp4'
            : rng.pick(['html', 'zip']),
    };
    this.store.addMaterial(material);
    this.materials.push(material);
  }

  private addCampaign(index: number): void {
    const {rng} = this;
    // The first five are fixed so tests always find each kind; the rest are drawn.
    const fixed: [string, CampaignStatus, 'AM' | 'ADV'][] = [
      ['ANDROID', 'RUNNING', 'ADV'],
      ['IOS', 'RUNNING', 'ADV'],
      ['WEBSITE', 'RUNNING', 'ADV'],
      ['ANDROID', 'RUNNING', 'AM'],
      ['IOS', 'STOPPED', 'ADV'],
    ];
    const [kind, status, maintainBy] = fixed[index] ?? [
      rng.weighted({ANDROID: 45, IOS: 30, WEBSITE: 25}),
      rng.weighted({
        RUNNING: 60,
        STOPPED: 15,
        OVER_DAILY_CAP: 15,
        INSUFFICIENT_ACCOUNT_BALANCE: 10,
      }),
      rng.chance(0.25) ? 'AM' : 'ADV',
    ];
    const product = PRODUCTS[index % PRODUCTS.length];
    const slug = product.toLowerCase().replace(/ /g, '');
    const isApp = kind !== 'WEBSITE';
    const platform = kind as AppPlatform;
    const packageName =
      kind === 'ANDROID'
        ? `com.demo.${slug}${index + 1}`
        : kind === 'IOS'
          ? `id${rng.int(1000000000, 1999999999)}`
          : '';
    const icon = this.materials.find(m => m.resolution === '512x512');
    const campaign: Campaign = {
      accountId: this.account.accountId,
      campaign_id: this.store.nextId('campaign'),
      campaign_name: `${product} ${PLATFORM_LABELS[kind]} ${index + 1}`,
      promotion_type: isApp ? 'APP' : 'WEBSITE',
      is_coppa: rng.chance(0.1) ? 'YES' : 'NO',
      alive_in_store: isApp && rng.chance(0.9) ? 'YES' : 'NO',
      preview_url:
        kind === 'ANDROID'
          ? `https://play.example.com/store/apps/details?id=${packageName}`
          : kind === 'IOS'
            ? `https://apps.example.com/app/${packageName}`
            : `https://www.example.com/${slug}`,
      product_name: product,
      package_name: packageName,
      description: `${product}: a demo product of the Offer Desk emulator.`,
      icon: isApp && icon ? icon.creative_md5 : '',
      platform: isApp ? platform : '',
      category: isApp ? rng.pick(CATEGORIES[platform]) : '',
      app_size: isApp ? rng.decimal(5, 400, 2) : 0,
      min_version: isApp
        ? rng.pick(
            kind === 'ANDROID'
              ? ['5.0', '6.0', '7.0', '8.0.0']
              : ['11.0', '12.0', '13.0'],
          )
        : '',
      maintain_by: maintainBy,
      status,
    };
    this.store.addCampaign(campaign);
    this.allCampaigns.push(campaign);
    if (isApp) this.appCampaigns.push(campaign);
  }

  private addOffer(index: number): void {
    const {rng} = this;
    // The first offers walk every billing type and status; the rest are drawn.
    const billing: BillingType =
      BILLING_TYPES[index] ??
      rng.weighted({CPI: 35, CPE: 15, CPM: 15, CPC: 15, OCPI: 20});
    const status: OfferStatus =
      OFFER_STATUSES[index] ??
      rng.weighted({
        RUNNING: 45,
        PENDING: 15,
        STOPPED: 15,
        OVER_CAP: 5,
        OVER_DAILY_CAP: 8,
        INSUFFICIENT_ACCOUNT_BALANCE: 5,
        PARTIALLY_OVER_CAP: 7,
      });
    const campaigns =
      APP_BILLING.includes(billing) && this.appCampaigns.length > 0
        ? this.appCampaigns
        : this.allCampaigns;
    const campaign = rng.pick(campaigns);
    const geos = rng.chance(0.2)
      ? ['ALL']
      : rng.sample(POPULAR_GEOS, rng.int(1, 4));
    const targetGeo = geos.join(',');
    const offerId = this.store.nextId('offer');
    const slug = campaign.product_name.replace(/ /g, '');
    const offerName = `${slug}_${geos[0]}_${billing}_${String(index + 1).padStart(5, '0')}`;
    const hasUrl = status !== 'PENDING' || rng.chance(0.6);
    const {start, end} = this.schedule(status);
    const stopReason =
      status !== 'STOPPED'
        ? ''
        : end !== 0 && end <= this.today
          ? END_REACHED
          : rng.pick(STOP_REASONS);
    const ocpi = billing === 'OCPI';
    const roas = ocpi && rng.chance(0.5);
    const bidRate = ocpi ? 0 : this.bidRate(billing);
    const uuid = offerUuid(this.store, offerId);
    const offer: Offer = {
      accountId: this.account.accountId,
      offer_id: offerId,
      campaign_id: campaign.campaign_id,
      uuid,
      offer_name: offerName,
      promote_timezone: rng.pick([-8, -5, 0, 1, 5.5, 8, 9]),
      start_time: start,
      end_time: end,
      status,
      target_geo: targetGeo,
      stage: rng.pick(['COLD_START', 'LEARNING', 'STABLE']),
      bid_type: billing,
      bid_goal: ocpi
        ? roas
          ? 'Target-ROAS'
          : 'Target-CPE'
        : AUTOMATIC_BID_GOAL[billing],
      bid_rate: bidRate,
      bid_rate_by_location:
        !ocpi && geos[0] !== 'ALL' && rng.chance(0.3)
          ? rng.sample(geos, rng.int(1, geos.length)).map(geo => ({
              country_code: geo,
              bid_rate: String(rng.decimal(bidRate * 0.8, bidRate * 1.5, 3)),
            }))
          : [],
      budget: this.budget(geos),
      offer_stop_reason: stopReason,
      settlement_event:
        billing === 'CPE'
          ? rng.pick(['purchase', 'register', 'level_10', 'tutorial_complete'])
          : '',
      tracking_method: hasUrl ? rng.pick(TRACKING_METHODS.slice(0, 8)) : '',
      click_url: hasUrl
        ? `https://track.example.com/click?c=${uuid}&clickid={click_id}`
        : '',
      impression_url:
        hasUrl && rng.chance(0.5)
          ? `https://track.example.com/imp?c=${uuid}`
          : '',
      support_server_click: 'NO',
      os_version_min:
        campaign.platform === 'IOS'
          ? '12.0'
          : campaign.platform
            ? '6.0'
            : '0.0.0',
      os_version_max: '99.0.0',
      custom_ad_schedule: rng.chance(0.3)
        ? {'1': '9,10,11,12', '3': '18,19,20,21', '6': '0,1,2,3,22,23'}
        : {},
      network: rng.chance(0.3) ? 'WIFI,4G,5G' : '',
      target_ad_type: ocpi
        ? AD_TYPES.join(',')
        : rng.sample(AD_TYPES, rng.int(1, 4)).join(','),
      target_device: rng.chance(0.8) ? 'PHONE,TABLET' : 'PHONE',
      click_url_status: !hasUrl
        ? 'NOT_EXIST'
        : status === 'PENDING' || stopReason === STOP_REASONS[2]
          ? 'PENDDING'
          : 'PASS',
      target_app: rng.chance(0.85)
        ? {switch: 0, agg_id: [], package: []}
        : {
            switch: rng.pick([1, 2] as const),
            agg_id: [`agg_${rng.int(1000, 9999)}`],
            package: [`com.example.publisher${rng.int(1, 99)}`],
          },
      maintain_by: campaign.maintain_by,
      include_ta_id: rng.chance(0.2) ? [rng.int(3000, 3999)] : [],
      exclude_ta_id: rng.chance(0.1) ? [rng.int(4000, 4999)] : [],
      target_agg_event: !ocpi ? [] : roas ? ['purchase'] : ['register'],
      target_original_event: ocpi && !roas ? 'af_complete_registration' : '',
      target_goal_window: ocpi ? rng.pick(['D0', 'D7']) : '',
      target_goal: !ocpi
        ? 0
        : roas
          ? rng.decimal(1, 1000, 2)
          : rng.decimal(0.1, 2000, 3),
      target_goal_by_geo: [],
      creative_sets: [],
      clickTestPassAt: null,
    };
    this.addCreativeSets(offer, geos);
    this.store.addOffer(offer);
    addCreativeAds(this.store, offer, () => rng.pick([1, 2] as const));
  }

  /**
   * Start and end (0: none) that agree with the status: only a PENDING offer may start in the
   * future; only a STOPPED one may have ended; any other ends at least 30 days from today (so
   * it stays as it is while the playground's virtual time moves on).
   */
  private schedule(status: OfferStatus): {start: number; end: number} {
    const {rng, today} = this;
    const start =
      status === 'PENDING' && rng.chance(0.4)
        ? today + rng.int(1, 30) * DAY
        : today - rng.int(1, 365) * DAY;
    if (!rng.chance(0.4)) return {start, end: 0};
    const from = status === 'STOPPED' ? start : Math.max(start, today);
    const end = from + rng.int(30, 180) * DAY;
    return {start, end};
  }

  private bidRate(billing: Exclude<BillingType, 'OCPI'>): number {
    const ranges = {CPI: [0.5, 5], CPE: [0.1, 3], CPM: [1, 20], CPC: [0.01, 1]};
    const [min, max] = ranges[billing];
    return this.rng.decimal(min, max, 3);
  }

  /** A single ALL budget, or per-geo groups covering every delivery geo exactly once. */
  private budget(geos: string[]): BudgetGroup[] {
    if (geos[0] === 'ALL' || this.rng.chance(0.5)) {
      return [this.budgetGroup('ALL')];
    }
    const groups: BudgetGroup[] = [];
    for (let i = 0; i < geos.length;) {
      const size = Math.min(this.rng.int(1, 2), geos.length - i);
      groups.push(this.budgetGroup(geos.slice(i, i + size).join(',')));
      i += size;
    }
    return groups;
  }

  private budgetGroup(targetGeo: string): BudgetGroup {
    const {rng} = this;
    const conversion = rng.chance(0.2);
    return {
      target_geo: targetGeo,
      daily_cap_type: conversion ? 'CONVERSION' : 'BUDGET',
      daily_cap: rng.chance(0.2)
        ? 'OPEN'
        : String(conversion ? rng.int(50, 500) : rng.int(50, 2000)),
      total_budget: rng.chance(0.3) ? 'OPEN' : String(rng.int(500, 50000)),
    };
  }

  private addCreativeSets(offer: Offer, geos: string[]): void {
    if (this.materials.length === 0) return;
    const {rng} = this;
    const sets = rng.int(1, 2);
    for (let k = 0; k < sets; k++) {
      const creatives = rng.sample(this.materials, rng.int(1, 3));
      const types = [...new Set(creatives.map(c => c.creative_type))];
      offer.creative_sets.push(
        newCreativeSet(this.store, {
          creative_set_name: `set_${k + 1}`,
          geos:
            geos[0] === 'ALL' || rng.chance(0.6)
              ? ['ALL']
              : rng.sample(geos, 1),
          ad_outputs: types.map(type => rng.pick(AD_OUTPUTS_BY_TYPE[type])),
          creatives: creatives.map(({creative_name, creative_md5}) => ({
            creative_name,
            creative_md5,
          })),
        }),
      );
    }
  }
}
