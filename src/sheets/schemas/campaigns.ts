/** The Campaigns sheet: one row per campaign (API 2.2); editable: the fields of 4.7. */
import type {Campaign} from '../../api/types';
import {defineSchema} from '../schema';

export const PROMOTION_TYPES = ['APP', 'WEBSITE'] as const;
export const YES_NO = ['YES', 'NO'] as const;

export const CAMPAIGNS = defineSchema<Campaign>({
  name: 'Campaigns',
  about:
    'One row per campaign (API 2.2). Edit the green columns (the fields of PUT campaign, 4.7) and push: only the fields you changed are sent. Campaigns maintained by your account manager (maintain_by AM) are view-only.',
  account: 'pulled',
  id: 'campaign_id',
  sync: true,
  sends:
    'Push campaigns sends, for each campaign, only the fields you changed here (PUT campaign).',
  columns: [
    {header: 'campaign_id', type: 'integer', note: 'Campaign identifier.'},
    {
      header: 'campaign_name',
      type: 'text',
      editable: true,
      note: 'Name, unique, at most 100 characters.',
    },
    {
      header: 'promotion_type',
      type: 'text',
      editable: true,
      values: PROMOTION_TYPES,
      note: 'What is promoted: an app or a website.',
    },
    {
      header: 'is_coppa',
      type: 'yesno',
      editable: true,
      values: YES_NO,
      note: 'Whether the product falls under COPPA (YES or NO; may be empty).',
    },
    {
      header: 'alive_in_store',
      type: 'yesno',
      note: 'Whether the product is listed in a public app store.',
    },
    {
      header: 'preview_url',
      type: 'text',
      note: 'Link of the promoted product.',
    },
    {
      header: 'product_name',
      type: 'text',
      editable: true,
      note: 'Product name (application or web page), at most 100 characters.',
    },
    {
      header: 'package_name',
      type: 'text',
      editable: true,
      note: 'Android bundle id or iOS store id of an app product.',
    },
    {
      header: 'description',
      type: 'text',
      editable: true,
      note: 'Product description, at most 4000 characters.',
    },
    {
      header: 'icon',
      type: 'text',
      lower: true,
      editable: true,
      note: 'md5 of the icon image previously uploaded as a material (jpg, png, jpeg or bmp; 512x512; at most 5 MB).',
    },
    {header: 'platform', type: 'text', note: 'Application platform.'},
    {
      header: 'category',
      type: 'text',
      editable: true,
      note: 'App category; the iOS and Android lists differ.',
    },
    {
      header: 'app_size',
      type: 'decimal',
      editable: true,
      note: 'Package size in MB, two decimals at most.',
    },
    {
      header: 'min_version',
      type: 'text',
      editable: true,
      note: 'Minimum system version the app needs: x, x.x, x.x.x or x.x.x.x (digits); empty for a WEBSITE.',
    },
    {
      header: 'maintain_by',
      type: 'text',
      note: 'AM: managed by the account manager, you may only view it (edits are refused); ADV: you may edit it.',
    },
    {header: 'status', type: 'text', note: 'Campaign status.'},
  ],
});
