/**
 * The Creative Ads sheet: what the last creative-ad list answered (API 2.6), one row per
 * creative of each creative ad (`creatives` flattened). Read-only: nothing here is pushed.
 */
import type {CreativeAd} from '../../api/types';
import {defineSchema} from '../schema';

type Creative = CreativeAd['creatives'][number];

/** A row: the ad and one of its creatives (none for an ad without creatives). */
export interface CreativeAdRow {
  ad: CreativeAd;
  creative?: Creative;
}

export const CREATIVE_ADS = defineSchema<CreativeAdRow>({
  name: 'Creative Ads',
  about:
    'What the last creative-ad list answered (API 2.6): one row per creative of each creative ad (the creatives list flattened). Read-only; each listing replaces the rows of the previous one (the cells of your own columns stay with an ad listed again), and the note of the ad_id header names the query the rows answer.',
  account: 'pulled',
  id: 'ad_id',
  rowKey: ['creative_id'],
  sync: false,
  columns: [
    {
      header: 'ad_id',
      type: 'integer',
      read: r => r.ad.ad_id,
      note: 'Creative ad id.',
    },
    {
      header: 'ad_name',
      type: 'text',
      read: r => r.ad.ad_name,
      note: 'Creative ad name.',
    },
    {
      header: 'offer_id',
      type: 'integer',
      read: r => r.ad.offer_id,
      note: 'Offer id.',
    },
    {
      header: 'offer_uuid',
      type: 'text',
      read: r => r.ad.offer_uuid,
      note: 'Unique offer name.',
    },
    {
      header: 'creative_set_id',
      type: 'integer',
      read: r => r.ad.creative_set_id,
      note: 'Creative set id.',
    },
    {
      header: 'combination_method',
      type: 'integer',
      read: r => r.ad.combination_method,
      note: '1 programmatic, 2 custom.',
    },
    {
      header: 'ad_output',
      type: 'integer',
      read: r => r.ad.ad_output,
      note: 'Creative output type code.',
    },
    {
      header: 'creative_id',
      type: 'integer',
      read: r => r.creative?.creative_id ?? null,
      note: 'One creative of the ad (creatives[].creative_id).',
    },
    {
      header: 'creative_name',
      type: 'text',
      read: r => r.creative?.creative_name ?? null,
      note: 'Name of the creative.',
    },
    {
      header: 'creative_md5',
      type: 'text',
      read: r => r.creative?.creative_md5 ?? null,
      note: 'md5 of the creative material.',
    },
    {
      header: 'creative_type',
      type: 'text',
      read: r => r.creative?.creative_type ?? null,
      note: 'IMAGE, VIDEO or PLAYABLE.',
    },
    {
      header: 'creative_url',
      type: 'text',
      read: r => r.creative?.creative_url ?? null,
      note: 'Link to the creative file.',
    },
  ],
});

/** An ad's rows: one per creative, or one row when it has none. */
export function creativeAdRows(ad: CreativeAd): CreativeAdRow[] {
  const creatives = Array.isArray(ad.creatives) ? ad.creatives : [];
  return creatives.length > 0
    ? creatives.map(creative => ({ad, creative}))
    : [{ad}];
}
