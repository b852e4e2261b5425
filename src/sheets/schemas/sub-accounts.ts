/**
 * The Sub-accounts sheet: one row per sub-advertiser account of the main account (API 2.7). A
 * row with a sub_adv_user_name and a password and no access_key is a sub-account to create;
 * Create sub-accounts clears its password whatever the outcome. The api key is never written
 * here: Offer Desk keeps it in your own user properties only.
 */
import type {SubAccount} from '../../api/types';
import {isBlank} from '../cell';
import {MONEY_FORMAT, defineSchema} from '../schema';

/** A sub-account as the sheet shows it: never its api key. */
export type SubAccountRow = Omit<SubAccount, 'api_key'>;

export const SUB_ACCOUNTS = defineSchema<SubAccountRow>({
  name: 'Sub-accounts',
  id: 'sub_adv_user_name',
  sync: true,
  awaitsCreation: cell =>
    !isBlank(cell('password')) && isBlank(cell('access_key')),
  columns: [
    {
      header: 'sub_adv_user_name',
      type: 'text',
      typed: true,
      note: 'User name of the sub-account. To create one, write it with a password and run Create sub-accounts.',
    },
    {
      header: 'password',
      type: 'text',
      kept: true,
      typed: true,
      read: () => undefined,
      note: 'Input only: the password of a sub-account to create. Create sub-accounts clears it on any outcome, so collaborators do not see it; the row says when to type it again.',
    },
    {
      header: 'access_key',
      type: 'text',
      note: "The sub-account's access key (its api key is kept in your user properties, never in the sheet).",
    },
    {
      header: 'is_unlimited_credit',
      type: 'text',
      kept: true,
      note: 'Whether the credit is unlimited, as answered when the sub-account was created (the lookup does not return it).',
    },
    {
      header: 'credit',
      type: 'decimal',
      format: MONEY_FORMAT,
      kept: true,
      note: 'Credit, as answered when the sub-account was created (the lookup does not return it).',
    },
  ],
});
