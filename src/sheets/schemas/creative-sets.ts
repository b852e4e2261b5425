/**
 * The Creative Sets sheet: one row per creative set of a new offer (API 2.4). A row belongs to
 * the New Offers row with the same offer_name; its creatives are material names or md5s that
 * the Creatives sheet resolves (a material not uploaded yet is uploaded by createOffers).
 */
import {defineSchema} from '../schema';

/** Rows are written by the user and never pulled. */
export const CREATIVE_SETS = defineSchema<never>({
  name: 'Creative Sets',
  account: 'typed',
  id: 'offer_name',
  rowKey: ['creative_set_name'],
  sync: true,
  sends:
    'Create offers sends the row with the create of its New Offers row (same offer_name); once that offer exists, nothing here is sent again.',
  columns: [
    {
      header: 'offer_name',
      type: 'text',
      editable: true,
      note: 'offer_name of the New Offers row this creative set belongs to.',
    },
    {
      header: 'creative_set_name',
      type: 'text',
      editable: true,
      note: 'Name of the creative set.',
    },
    {
      header: 'geos',
      type: 'list',
      upper: true,
      editable: true,
      note: "Geo codes the set serves, comma-separated; 'ALL' for all.",
    },
    {
      header: 'ad_outputs',
      type: 'list',
      items: 'integer',
      editable: true,
      note: 'Creative output type codes (size and kind), comma-separated whole numbers.',
    },
    {
      header: 'creatives',
      type: 'list',
      editable: true,
      note: 'Materials of the set, comma-separated: each a creative_name, creative_md5 or file of the Creatives sheet.',
    },
  ],
});
