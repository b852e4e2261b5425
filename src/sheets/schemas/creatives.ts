/**
 * The Creatives sheet: one row per material (API 2.5). A refresh lists the account's
 * materials; a row the user adds with a `file` (a picked Drive file's id or link, or an https link) and
 * no creative_md5 is a material to upload, and stays, untouched, until it is uploaded.
 */
import type {Material} from '../../api/types';
import {isBlank} from '../cell';
import {defineSchema} from '../schema';

/**
 * The state-book memo holding the accounts ('' for the main one) Creatives was refreshed as
 * (until version 3 of the state, the one account): the campaign push judges an icon only
 * against the materials of an account whose materials it knows.
 */
export const CREATIVES_ACCOUNT_MEMO = 'Creatives refreshed as';

/** The accounts whose materials the Creatives sheet lists, as the memo remembers them. */
export function creativesRefreshedAs(memo: {
  memo<T>(name: string): T | undefined;
}): string[] {
  const value = memo.memo<unknown>(CREATIVES_ACCOUNT_MEMO);
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.map(String) : [];
}

export const CREATIVE_TYPES = ['IMAGE', 'VIDEO', 'PLAYABLE'] as const;

export const CREATIVES = defineSchema<Material>({
  name: 'Creatives',
  account: 'typed',
  id: 'creative_md5',
  // A row to upload has a file and no md5 yet: the upload writes its md5 into that row.
  identity: ['creative_md5', 'file'],
  sync: true,
  awaitsCreation: cell =>
    !isBlank(cell('file')) && isBlank(cell('creative_md5')),
  columns: [
    {
      header: 'file',
      type: 'text',
      kept: true,
      typed: true,
      read: () => undefined,
      note: 'The file to upload: a Drive file picked with "Choose files…" (which writes its id here), or an https:// link. Offer Desk may read only the Drive files you picked. Upload creative materials uploads every row with a file and no creative_md5.',
    },
    {
      header: 'creative_type',
      type: 'text',
      values: CREATIVE_TYPES,
      note: "'IMAGE', 'VIDEO' or 'PLAYABLE'.",
    },
    {
      header: 'creative_md5',
      type: 'text',
      note: 'md5 of the material, filled by the upload. Creative Sets rows may name a material by it.',
    },
    {
      header: 'creative_name',
      type: 'text',
      typed: true,
      note: 'Name; defaults to the file name. Before the upload you may type the name to give the material; afterwards it shows the name the API keeps.',
    },
    {header: 'resolution', type: 'text', note: 'Resolution or pixels.'},
    {header: 'size', type: 'decimal', note: 'Size in KB.'},
    {
      header: 'language',
      type: 'text',
      note: 'Language of a PLAYABLE material; empty for others.',
    },
    {
      header: 'platform',
      type: 'text',
      note: "For PLAYABLE: 'ANDROID', 'IOS' or 'ALL'; empty for others.",
    },
  ],
});
